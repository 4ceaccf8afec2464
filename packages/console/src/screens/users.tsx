/** Users: search by phone, e-mail, username, nickname or id; a long list loaded as it scrolls. */

import { LazyImage } from '@edupass/ui-kit/lazy-image.tsx';
import { useInfiniteScroll } from '@edupass/ui-kit/use-infinite-scroll.ts';
import { type FormEvent, useCallback, useEffect, useRef, useState } from 'react';
import { searchUsers, type UserRow } from '../api/admin-api.ts';
import { useConsoleText } from '../i18n/i18n.ts';
import { hrefOf, navigate } from '../router.ts';
import { Failure, Loading } from '../ui/status.tsx';

interface ListState {
  items: UserRow[];
  done: boolean;
  error: unknown;
}

const initial: ListState = { items: [], done: false, error: undefined };

const Avatar = ({ user }: { user: UserRow }) => {
  const { t } = useConsoleText();
  const name = user.nickname || user.username || String(user.id);
  return (
    <LazyImage
      src={user.avatar_url}
      alt={t('users.avatar', { name })}
      width={40}
      height={40}
      className="console-avatar"
      fallback={
        <span className="console-avatar-fallback" aria-hidden="true">
          {name.slice(0, 1).toUpperCase()}
        </span>
      }
    />
  );
};

export const UsersScreen = ({ q }: { q: string }) => {
  const { t } = useConsoleText();
  const [text, setText] = useState(q);
  const [list, setList] = useState<ListState>(initial);
  const loading = useRef(false);
  // The cursor is read from a ref: the scroll hook may call before React has re-rendered with it.
  const cursor = useRef<number | undefined>(undefined);
  const done = useRef(false);

  const loadMore = useCallback(async () => {
    if (loading.current || done.current) return;
    loading.current = true;
    try {
      const page = await searchUsers(q, cursor.current);
      cursor.current = page.next_cursor;
      done.current = page.next_cursor === undefined;
      setList((s) => ({
        items: [...s.items, ...page.items],
        done: done.current,
        error: undefined,
      }));
    } catch (error) {
      setList((s) => ({ ...s, error }));
    } finally {
      loading.current = false;
    }
  }, [q]);

  const hasMore = !list.done && list.error === undefined;
  const sentinel = useInfiniteScroll<HTMLDivElement>({ hasMore, loadMore });
  // The first page, even before any scroll event.
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void loadMore();
  }, [loadMore]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    navigate({ name: 'users', q: text.trim() });
  };

  return (
    <>
      <h1>{t('users.title')}</h1>
      {/* biome-ignore lint/a11y/useSemanticElements: role=search on the form is the landmark */}
      <form role="search" className="console-filters" onSubmit={submit}>
        <label htmlFor="console-user-search">{t('users.search')}</label>
        <input
          id="console-user-search"
          type="search"
          value={text}
          maxLength={64}
          aria-describedby="console-user-search-hint"
          onChange={(e) => setText(e.target.value)}
        />
        <span id="console-user-search-hint" className="console-muted">
          {t('users.searchHint')}
        </span>
        <button type="submit" className="console-button">
          {t('users.searchButton')}
        </button>
      </form>
      {list.items.length > 0 ? (
        <ul className="console-user-list" aria-label={t('users.title')}>
          {list.items.map((user) => (
            <li key={user.id} className="console-user-row">
              <Avatar user={user} />
              <a href={hrefOf({ name: 'user', id: user.id })} className="console-user-name">
                {user.nickname || t('users.noNickname')}
              </a>
              <span className="console-user-meta">
                #{user.id}
                {user.phone ? ` · ${user.phone}` : ''}
                {user.email ? ` · ${user.email}` : ''}
                {user.username ? ` · @${user.username}` : ''}
              </span>
              {user.blocked ? <span className="console-badge console-badge-danger">{t('users.blocked')}</span> : null}
              {user.role === 'operator' ? <span className="console-badge">{t('users.operator')}</span> : null}
              {user.minor ? <span className="console-badge">{t('users.minor')}</span> : null}
            </li>
          ))}
        </ul>
      ) : null}
      {list.error ? <Failure error={list.error} retry={() => setList((s) => ({ ...s, error: undefined }))} /> : null}
      {list.done && list.items.length === 0 ? <p role="status">{t('users.none')}</p> : null}
      {list.done && list.items.length > 0 ? (
        <p className="console-muted" role="status">
          {t('users.end', { count: list.items.length })}
        </p>
      ) : null}
      {hasMore ? (
        <div ref={sentinel} className="console-sentinel">
          {list.items.length === 0 ? <Loading /> : <span className="console-muted">{t('users.more')}</span>}
        </div>
      ) : null}
    </>
  );
};
