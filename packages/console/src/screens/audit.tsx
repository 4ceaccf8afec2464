/**
 * The audit log: what operators changed and the bulk actions of schools' teachers, newest first,
 * narrowed by action (or a group of actions: every bulk action of schools) and operator, a page at a time.
 */
import { AUDIT_ACTIONS, AUDIT_GROUPS, type AuditAction, type AuditEntry, type AuditGroup } from '@edupass/protocol';
import { useLoad } from '@edupass/ui-kit/use-load.ts';
import { usePages } from '@edupass/ui-kit/use-pages.ts';
import { type FormEvent, useState } from 'react';
import { type AuditFilter, exportAuditLog, listAudit, listOperators } from '../api/admin-api.ts';
import { useConsoleText } from '../i18n/i18n.ts';
import { download } from '../ui/download.ts';
import { Failure, PageEnd } from '../ui/status.tsx';
import { DataTable } from '../ui/table.tsx';

const PAGE = 50;

const isKnownAction = (action: string): action is AuditAction => (AUDIT_ACTIONS as readonly string[]).includes(action);

/** The action select's value for a group of actions (`group:edu-bulk`), apart from single actions. */
const GROUP_PREFIX = 'group:';
const asGroup = (value: string): AuditGroup | undefined => {
  const group = value.startsWith(GROUP_PREFIX) ? value.slice(GROUP_PREFIX.length) : '';
  return Object.hasOwn(AUDIT_GROUPS, group) ? (group as AuditGroup) : undefined;
};

const Operator = ({ entry }: { entry: AuditEntry }) => (
  <>
    #{entry.operator_id}
    {entry.operator_name ? ` ${entry.operator_name}` : ''}
    {entry.operator_phone ? ` · ${entry.operator_phone}` : ''}
  </>
);

/** The auditor's downloads: the audit log and the reads of people's records, as CSV (each export audited). */
const Exports = () => {
  const { t } = useConsoleText();
  const [failed, setFailed] = useState<unknown>();
  const save = async (log: 'audit' | 'reads') => {
    setFailed(undefined);
    try {
      const { csv } = await exportAuditLog(log);
      download(`edupass-${log === 'audit' ? 'audit' : 'reads'}-log.csv`, 'text/csv', `\uFEFF${csv}`);
    } catch (error) {
      setFailed(error);
    }
  };
  return (
    <div className="console-filters">
      <button type="button" className="console-button" onClick={() => void save('audit')}>
        {t('audit.exportAudit')}
      </button>
      <button type="button" className="console-button" onClick={() => void save('reads')}>
        {t('audit.exportReads')}
      </button>
      {failed === undefined ? null : <Failure error={failed} />}
    </div>
  );
};

export const AuditScreen = () => {
  const { t, time } = useConsoleText();
  const operators = useLoad(listOperators);
  const [action, setAction] = useState('');
  const [operator, setOperator] = useState('');
  const [filter, setFilter] = useState<AuditFilter>({});
  const actionName = (a: string) => (isKnownAction(a) ? t(`audit.${a}`) : a);

  const log = usePages(
    async (last: AuditEntry | undefined) => {
      const items = await listAudit(filter, last?.id, PAGE);
      return { items, more: items.length === PAGE };
    },
    [filter],
  );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const group = asGroup(action);
    setFilter({
      ...(group ? { group } : { action: action || undefined }),
      operator: operator ? Number(operator) : undefined,
    });
  };

  return (
    <>
      <h1>{t('audit.title')}</h1>
      <p className="console-lead">{t('audit.explain')}</p>
      <Exports />
      <form className="console-filters" onSubmit={submit}>
        <label htmlFor="audit-action">{t('audit.action')}</label>
        <select id="audit-action" value={action} onChange={(e) => setAction(e.target.value)}>
          <option value="">{t('audit.allActions')}</option>
          <option value={`${GROUP_PREFIX}edu-bulk`}>{t('audit.bulkActions')}</option>
          {AUDIT_ACTIONS.map((a) => (
            <option key={a} value={a}>
              {actionName(a)}
            </option>
          ))}
        </select>
        <label htmlFor="audit-operator">{t('audit.operator')}</label>
        <select id="audit-operator" value={operator} onChange={(e) => setOperator(e.target.value)}>
          <option value="">{t('audit.allOperators')}</option>
          {(operators.data ?? []).map((o) => (
            <option key={o.id} value={o.id}>
              #{o.id} {o.name} {o.phone}
            </option>
          ))}
        </select>
        <button type="submit" className="console-button">
          {t('audit.apply')}
        </button>
      </form>
      {operators.status === 'failed' ? <Failure error={operators.error} retry={operators.reload} /> : null}
      {log.items.length > 0 ? (
        <DataTable
          wrap
          caption={t('audit.title')}
          rows={log.items}
          rowKey={(entry) => entry.id}
          columns={[
            { head: t('audit.time'), cell: (entry) => time(entry.at) },
            { head: t('audit.actor'), cell: (entry) => <Operator entry={entry} /> },
            { head: t('audit.action'), cell: (entry) => actionName(entry.action) },
            { head: t('audit.target'), cell: (entry) => <code>{entry.target}</code> },
            { head: t('audit.detail'), cell: (entry) => entry.detail },
          ]}
        />
      ) : null}
      <PageEnd
        pages={log}
        none={t('audit.none')}
        end={t('audit.end', { count: log.items.length })}
        more={t('audit.more')}
      />
    </>
  );
};
