/** The audit-log row of a school's bulk action or an operator's change (the console's audit log shows both). */
import type { Context } from '../../context.ts';
import { recordAudit } from '../../store/admin/admin.ts';

export const eduAudit = (
  ctx: Pick<Context, 'db' | 'now' | 'keys'>,
  actorId: number,
  action: string,
  target: string,
  detail = '',
) => recordAudit(ctx.db, ctx.keys.audit, { operator_id: actorId, action, target, detail, at: ctx.now() });
