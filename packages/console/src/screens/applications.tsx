/**
 * Applications that sign their users in through EduPass (OpenID Connect): register one (a
 * confidential one's secret is shown once), change its redirect URIs, PKCE requirement and
 * back-channel logout URI, rotate a
 * secret, remove one. Its words in both of the
 * console's languages are kept here, with the screen.
 */
import type { Application } from '@edupass/protocol';
import { FormError, Notice } from '@edupass/ui-kit/status.tsx';
import { useAction } from '@edupass/ui-kit/use-action.ts';
import { useLoad } from '@edupass/ui-kit/use-load.ts';
import { type FormEvent, useState } from 'react';
import {
  addApplication,
  getApplications,
  removeApplication,
  rotateApplicationSecret,
  updateApplication,
} from '../api/applications-api.ts';
import { type ConsoleLocale, screenWords, useConsoleText } from '../i18n/i18n.ts';
import { ConsoleConfirm } from '../ui/confirm.tsx';
import { Loaded } from '../ui/status.tsx';
import { Card, DataTable } from '../ui/table.tsx';

const WORDS = {
  en: {
    title: 'Applications',
    lead: 'Products that sign their users in with EduPass. First-party ones skip the consent screen.',
    add: 'Register an application',
    name: 'Name',
    logo: 'Logo URL',
    redirects: 'Redirect URIs (one a line)',
    postLogout: 'After sign-out URIs (one a line)',
    firstParty: 'First-party (no consent screen)',
    confidential: 'Confidential (has a secret; otherwise PKCE only)',
    requirePkce: 'Require PKCE of this confidential application too',
    discloses:
      "It passes what it receives on to others (a child's data then needs a guardian's consent after the real-name check)",
    backchannel: 'Back-channel logout URI (optional: told when its users sign out of EduPass)',
    submit: 'Register',
    edit: 'Edit',
    editTitle: 'Change {name}',
    save: 'Save',
    cancel: 'Cancel',
    saved: 'Saved {name}.',
    clientId: 'Client id',
    kind: 'Kind',
    actions: 'Actions',
    rotate: 'New secret',
    remove: 'Remove',
    confirmRotate: 'Give {name} a new secret?',
    confirmRotateBody:
      'Its current secret stops working at once: the application signs nobody in until it has the new one.',
    confirmRemove: 'Remove {name}?',
    confirmRemoveBody: 'Nobody can sign in to it through EduPass any more. This cannot be undone.',
    none: 'No application is registered yet.',
    secretOnce: 'Secret of {name}, shown once; copy it now:',
    added: 'Registered {name}.',
    removed: 'Removed {name}.',
    first: 'first-party',
    third: 'third-party',
    secret: 'secret',
    pkce: 'PKCE',
  },
  'zh-CN': {
    title: '应用',
    lead: '用 EduPass 登录用户的产品。第一方应用不显示授权确认页。',
    add: '注册应用',
    name: '名称',
    logo: '图标 URL',
    redirects: '回调地址（每行一个）',
    postLogout: '退出后返回地址（每行一个）',
    firstParty: '第一方（不显示授权确认页）',
    confidential: '机密应用（有密钥；否则只用 PKCE）',
    requirePkce: '机密应用也要求 PKCE',
    discloses: '会把收到的信息提供给他人（儿童的信息须监护人经实名核验后同意）',
    backchannel: '后端退出通知地址（可选：用户退出 EduPass 时通知该应用）',
    submit: '注册',
    edit: '修改',
    editTitle: '修改 {name}',
    save: '保存',
    cancel: '取消',
    saved: '已保存 {name}。',
    clientId: 'Client id',
    kind: '类型',
    actions: '操作',
    rotate: '更换密钥',
    remove: '删除',
    confirmRotate: '为 {name} 更换密钥？',
    confirmRotateBody: '当前密钥立即失效：应用换上新密钥之前，无法让任何人登录。',
    confirmRemove: '删除 {name}？',
    confirmRemoveBody: '此后无法再通过 EduPass 登录该应用。删除后不能恢复。',
    none: '还没有注册应用。',
    secretOnce: '{name} 的密钥只显示这一次，请立即复制：',
    added: '已注册 {name}。',
    removed: '已删除 {name}。',
    first: '第一方',
    third: '第三方',
    secret: '密钥',
    pkce: 'PKCE',
  },
} as const satisfies Record<ConsoleLocale, Record<string, string>>;

type Word = keyof (typeof WORDS)['en'];

const useWords = screenWords(WORDS);

const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');

const AddForm = ({ added }: { added: (name: string, secret: string) => void }) => {
  const w = useWords();
  const action = useAction(useConsoleText().errorText);
  const [form, setForm] = useState({
    name: '',
    logo: '',
    redirects: '',
    postLogout: '',
    backchannel: '',
    first: true,
    confidential: true,
    requirePkce: false,
    discloses: false,
  });
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    await action.run(async () => {
      const made = await addApplication({
        name: form.name,
        logo_url: form.logo,
        redirect_uris: lines(form.redirects),
        post_logout_redirect_uris: lines(form.postLogout),
        first_party: form.first,
        confidential: form.confidential,
        require_pkce: form.confidential ? form.requirePkce : true,
        backchannel_logout_uri: form.backchannel,
        discloses_to_others: form.discloses,
      });
      added(made.application.name, made.client_secret ?? '');
    });
  };
  const text = (key: 'name' | 'logo' | 'redirects' | 'postLogout' | 'backchannel', multiline = false) => {
    const id = `application-${key}`;
    const change = (value: string) => setForm({ ...form, [key]: value });
    return (
      <>
        <label htmlFor={id}>{w(key)}</label>
        {multiline ? (
          <textarea id={id} value={form[key]} onChange={(e) => change(e.target.value)} rows={2} />
        ) : (
          <input id={id} value={form[key]} onChange={(e) => change(e.target.value)} />
        )}
      </>
    );
  };
  const check = (key: 'first' | 'confidential' | 'requirePkce' | 'discloses', label: Word) => (
    <label>
      <input type="checkbox" checked={form[key]} onChange={(e) => setForm({ ...form, [key]: e.target.checked })} />
      <span>{w(label)}</span>
    </label>
  );
  return (
    <Card id="application-add" title={w('add')}>
      <form className="console-form" onSubmit={submit}>
        {text('name')}
        {text('logo')}
        {text('redirects', true)}
        {text('postLogout', true)}
        {text('backchannel')}
        {check('first', 'firstParty')}
        {check('confidential', 'confidential')}
        {form.confidential ? check('requirePkce', 'requirePkce') : null}
        {check('discloses', 'discloses')}
        <FormError message={action.error} />
        <button type="submit" className="console-button" disabled={action.busy}>
          {w('submit')}
        </button>
      </form>
    </Card>
  );
};

const EditForm = ({ app, done }: { app: Application; done: (saved: string | undefined) => void }) => {
  const w = useWords();
  const action = useAction(useConsoleText().errorText);
  const [form, setForm] = useState({
    redirects: app.redirect_uris.join('\n'),
    postLogout: app.post_logout_redirect_uris.join('\n'),
    requirePkce: app.require_pkce,
    backchannel: app.backchannel_logout_uri,
  });
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    let saved: string | undefined;
    const ok = await action.run(async () => {
      const changed = await updateApplication(app.client_id, {
        redirect_uris: lines(form.redirects),
        post_logout_redirect_uris: lines(form.postLogout),
        require_pkce: form.requirePkce,
        backchannel_logout_uri: form.backchannel,
      });
      saved = w('saved', { name: changed.name });
    });
    if (ok && saved !== undefined) done(saved);
  };
  const area = (key: 'redirects' | 'postLogout') => (
    <>
      <label htmlFor={`application-edit-${key}`}>{w(key)}</label>
      <textarea
        id={`application-edit-${key}`}
        value={form[key]}
        onChange={(e) => setForm({ ...form, [key]: e.target.value })}
        rows={3}
      />
    </>
  );
  return (
    <Card id="application-edit" title={w('editTitle', { name: app.name })}>
      <form className="console-form" onSubmit={submit}>
        {area('redirects')}
        {area('postLogout')}
        <label htmlFor="application-edit-backchannel">{w('backchannel')}</label>
        <input
          id="application-edit-backchannel"
          value={form.backchannel}
          onChange={(e) => setForm({ ...form, backchannel: e.target.value })}
        />
        {app.confidential ? (
          <label>
            <input
              type="checkbox"
              checked={form.requirePkce}
              onChange={(e) => setForm({ ...form, requirePkce: e.target.checked })}
            />
            <span>{w('requirePkce')}</span>
          </label>
        ) : null}
        <FormError message={action.error} />
        <button type="submit" className="console-button" disabled={action.busy}>
          {w('save')}
        </button>
        <button type="button" className="console-button console-button-quiet" onClick={() => done(undefined)}>
          {w('cancel')}
        </button>
      </form>
    </Card>
  );
};

export const ApplicationsScreen = () => {
  const w = useWords();
  const apps = useLoad(getApplications);
  const action = useAction(useConsoleText().errorText);
  const [shown, setShown] = useState<{ name: string; secret: string } | undefined>(undefined);
  const [editing, setEditing] = useState<Application | undefined>(undefined);
  const [saved, setSaved] = useState<string | undefined>(undefined);
  // The breaking action waiting for the operator's yes.
  const [asking, setAsking] = useState<{ kind: 'rotate' | 'remove'; app: Application } | undefined>(undefined);
  const showSecret = (name: string, secret: string) => {
    setShown(secret ? { name, secret } : undefined);
    apps.reload();
  };
  const rotate = (app: Application) =>
    action.run(async () => showSecret(app.name, await rotateApplicationSecret(app.client_id)));
  const remove = async (app: Application) => {
    const removed = await action.run(async () => {
      await removeApplication(app.client_id);
      return w('removed', { name: app.name });
    });
    if (removed) apps.reload();
  };
  return (
    <>
      <h1>{w('title')}</h1>
      <p className="console-lead">{w('lead')}</p>
      {shown ? (
        <p className="console-notice" role="status">
          {w('secretOnce', { name: shown.name })} <code>{shown.secret}</code>
        </p>
      ) : null}
      <Notice message={action.notice ?? saved ?? null} />
      <FormError message={action.error} />
      <Loaded state={apps}>
        {(rows) => (
          <DataTable
            rows={rows}
            rowKey={(app) => app.client_id}
            empty={w('none')}
            wrap
            columns={[
              { head: w('name'), rowHeader: true, cell: (app) => app.name },
              { head: w('clientId'), cell: (app) => <code>{app.client_id}</code> },
              {
                head: w('kind'),
                cell: (app) => `${w(app.first_party ? 'first' : 'third')}, ${w(app.confidential ? 'secret' : 'pkce')}`,
              },
              { head: w('redirects'), cell: (app) => app.redirect_uris.join(' ') },
              {
                head: w('actions'),
                cell: (app) => (
                  <>
                    <button
                      type="button"
                      className="console-button console-button-quiet"
                      onClick={() => {
                        setSaved(undefined);
                        setEditing(app);
                      }}
                    >
                      {w('edit')}
                    </button>
                    {app.confidential ? (
                      <button
                        type="button"
                        className="console-button console-button-quiet"
                        onClick={() => setAsking({ kind: 'rotate', app })}
                      >
                        {w('rotate')}
                      </button>
                    ) : null}
                    <button
                      type="button"
                      className="console-button console-button-quiet"
                      onClick={() => setAsking({ kind: 'remove', app })}
                    >
                      {w('remove')}
                    </button>
                  </>
                ),
              },
            ]}
          />
        )}
      </Loaded>
      {asking ? (
        <ConsoleConfirm
          title={w(asking.kind === 'rotate' ? 'confirmRotate' : 'confirmRemove', { name: asking.app.name })}
          body={w(asking.kind === 'rotate' ? 'confirmRotateBody' : 'confirmRemoveBody')}
          confirmLabel={w(asking.kind)}
          onCancel={() => setAsking(undefined)}
          onConfirm={() => {
            setAsking(undefined);
            void (asking.kind === 'rotate' ? rotate(asking.app) : remove(asking.app));
          }}
        />
      ) : null}
      {editing ? (
        <EditForm
          key={editing.client_id}
          app={editing}
          done={(message) => {
            setEditing(undefined);
            setSaved(message);
            if (message) apps.reload();
          }}
        />
      ) : null}
      <AddForm added={showSecret} />
    </>
  );
};
