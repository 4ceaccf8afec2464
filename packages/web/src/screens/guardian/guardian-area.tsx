/**
 * The guardian area, `/guardian`: link a child with a one-time code (typed, or from a QR code that
 * opens `/guardian#<code>`; session/guardian-code.ts keeps it across a sign-in), the linked
 * children, and one child's panel at a time (child-panel.tsx).
 */
import { guardianLinkTable, guardianTable } from '@edupass/protocol';
import { FormError, Notice } from '@edupass/ui-kit/status.tsx';
import { useAction } from '@edupass/ui-kit/use-action.ts';
import { useLoad } from '@edupass/ui-kit/use-load.ts';
import { useId, useState } from 'react';
import { useI18n } from '../../i18n/i18n.ts';
import { eduCall } from '../../session/edu.ts';
import { keepGuardianCode } from '../../session/guardian-code.ts';
import { Link } from '../../ui/link.tsx';
import { useLoadError } from '../../ui/load-error.ts';
import { shownChildName } from '../../ui/nickname.ts';
import { RelationField } from '../../ui/relation-field.tsx';
import { Screen } from '../../ui/screen.tsx';
import { ChildPanel } from './child-panel.tsx';
import { OwnRequests, RequestsToDecide } from './guardian-requests.tsx';
import { forgetGuardianCode, keptGuardianCode } from './kept-code.ts';
import { SchoolInvites } from './school-invites.tsx';

/** A code from a scanned QR code: in the address (then removed from it), or kept across a sign-in. */
const takeCode = () => {
  keepGuardianCode(window.location.pathname);
  return keptGuardianCode();
};

const LinkForm = ({ onLinked, onAsked }: { onLinked: (childId: number) => void; onAsked: () => void }) => {
  const { t } = useI18n();
  const action = useAction();
  const ids = { code: useId() };
  const [code, setCode] = useState(takeCode);
  const [relation, setRelation] = useState('');
  return (
    <form
      className="account-section"
      aria-labelledby="link-title"
      onSubmit={(event) => {
        event.preventDefault();
        void action.run(async () => {
          if (!relation) throw new Error(t('guardianConsent.relationNeeded'));
          const { child_id, state } = await eduCall(guardianLinkTable.linkChild, { body: { code, relation } });
          setCode('');
          forgetGuardianCode();
          if (state === 'pending') {
            // The child has a guardian: they decide; the waiting screen says so.
            onAsked();
            return;
          }
          onLinked(child_id);
          return t('guardian.linked');
        });
      }}
    >
      <h2 id="link-title">{t('guardian.linkTitle')}</h2>
      <p className="hint">{t('guardian.linkBody')}</p>
      <div className="field">
        <label htmlFor={ids.code}>{t('guardian.code')}</label>
        <input
          id={ids.code}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          required
          maxLength={32}
          value={code}
          onChange={(event) => setCode(event.target.value)}
          data-testid="guardian-code"
        />
      </div>
      <RelationField value={relation} onChange={setRelation} />
      <FormError message={action.error} />
      <Notice message={action.notice} />
      <p>
        <button type="submit" className="button primary block" aria-busy={action.busy}>
          {t('guardian.link')}
        </button>
      </p>
    </form>
  );
};

const GuardianArea = () => {
  const { t } = useI18n();
  const children = useLoad(() => eduCall(guardianTable.guardianChildren));
  const requests = useLoad(() => eduCall(guardianLinkTable.guardianRequests));
  const loadError = useLoadError(children);
  const [shown, setShown] = useState<number | null>(null);
  const list = children.data?.children ?? [];
  const current = shown ?? (list.length === 1 ? (list[0]?.id ?? null) : null);
  return (
    <Screen title={t('guardian.title')} wide>
      <p>{t('guardian.intro')}</p>
      <FormError {...loadError} />
      <SchoolInvites
        onConfirmed={(childId) => {
          setShown(childId);
          children.reload();
          requests.reload();
        }}
      />
      <RequestsToDecide requests={requests.data?.to_decide ?? []} onDecided={() => requests.reload()} />
      <OwnRequests mine={requests.data?.mine ?? []} />
      {children.data && list.length === 0 ? <p className="muted">{t('guardian.none')}</p> : null}
      {list.length > 1 ? (
        <ul className="guardian-children">
          {list.map((child) => (
            <li key={child.id}>
              <button
                type="button"
                className={`button block${child.id === current ? ' primary' : ''}`}
                aria-pressed={child.id === current}
                onClick={() => setShown(child.id)}
              >
                {t('guardian.show', { name: shownChildName(child, t) || `#${child.id}` })}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {current !== null ? (
        <ChildPanel
          key={current}
          childId={current}
          onGone={() => {
            setShown(null);
            children.reload();
          }}
        />
      ) : null}
      <LinkForm
        onLinked={(childId) => {
          setShown(childId);
          children.reload();
        }}
        onAsked={() => requests.reload()}
      />
      <p>
        <Link className="button block" href="/account">
          {t('guardian.back')}
        </Link>
      </p>
    </Screen>
  );
};

export default GuardianArea;
