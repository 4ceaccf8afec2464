/** The connectors as a table: each one's name (with the addresses to register at its platform), code, school, kind, state and actions. */
import type { SchoolConnector } from '../../api/edu-api.ts';
import { DataTable } from '../../ui/table.tsx';
import { isKind, settingOf } from './kinds.ts';
import { useWords, type Word } from './words.ts';

/** The edit form a row opens below the list. */
export type EditForm = 'settings' | 'mapping';

/** An address of ours that the school's side must know, with what it is for. */
const Address = ({ word, uri }: { word: Word; uri: string }) => {
  const w = useWords();
  return <small className="console-muted console-block">{w(word, { name: uri })}</small>;
};

const NameCell = ({ connector }: { connector: SchoolConnector }) => {
  const logout = settingOf(connector, 'backchannel_logout_uri');
  const postLogout = settingOf(connector, 'post_logout_redirect_uri');
  return (
    <>
      {connector.name}
      {connector.kind === 'oidc' ? <Address word="redirect" uri={settingOf(connector, 'redirect_uri')} /> : null}
      {connector.kind === 'workapp' ? <Address word="redirectApp" uri={settingOf(connector, 'redirect_uri')} /> : null}
      {logout ? <Address word="logoutUri" uri={logout} /> : null}
      {postLogout ? <Address word="postLogoutUri" uri={postLogout} /> : null}
    </>
  );
};

interface RowActions {
  open: (form: EditForm, connector: SchoolConnector) => void;
  /** Asks whether to switch the connector off (or on). */
  ask: (connector: SchoolConnector) => void;
}

const Actions = ({ connector, open, ask }: RowActions & { connector: SchoolConnector }) => {
  const w = useWords();
  const opener = (form: EditForm) => (
    <button
      type="button"
      className="console-button console-button-quiet"
      aria-label={w(form === 'settings' ? 'editSettingsOf' : 'editMappingOf', { name: connector.name })}
      onClick={() => open(form, connector)}
    >
      {w(form === 'settings' ? 'editSettings' : 'editMapping')}
    </button>
  );
  return (
    <>
      {opener('settings')}
      {opener('mapping')}
      <button type="button" className="console-button console-button-quiet" onClick={() => ask(connector)}>
        {w(connector.enabled ? 'disable' : 'enable')}
      </button>
    </>
  );
};

export const ConnectorTable = (props: RowActions & { rows: SchoolConnector[]; schoolName: (id: number) => string }) => {
  const w = useWords();
  return (
    <DataTable
      rows={props.rows}
      rowKey={(c) => c.id}
      empty={w('none')}
      caption={w('title')}
      wrap
      columns={[
        { head: w('name'), rowHeader: true, cell: (c) => <NameCell connector={c} /> },
        { head: w('code'), cell: (c) => c.code },
        { head: w('school'), cell: (c) => props.schoolName(c.school_id) },
        { head: w('kind'), cell: (c) => (isKind(c.kind) ? w(`kind.${c.kind}`) : c.kind) },
        { head: w('state'), cell: (c) => w(c.enabled ? 'on' : 'off') },
        { head: w('actions'), cell: (c) => <Actions connector={c} open={props.open} ask={props.ask} /> },
      ]}
    />
  );
};
