/**
 * Steps of the address-book tests (server and browser): a school with its WeCom or DingTalk book
 * served by a stand-in (address-book-peers.ts), synced and confirmed through the admin API as the
 * console does.
 */
import { routes } from '@edupass/protocol';
import type { Call } from './accounts.ts';
import { type BookPeer, dingtalkBookPeer, wecomBookPeer } from './address-book-peers.ts';
import type { SchoolBook } from './address-book-school.ts';
import { eduSteps, pathOf } from './edu-steps.ts';
import type { TestServer } from './harness.ts';

export interface BookJob {
  id: number;
  status: string;
  format: string;
  counts: Record<string, number>;
  refused: { file: string; line: number; column: string; reason: string }[];
  holds: { school_id: number; removed: number; listed: number }[];
}

export type BookVendor = 'wecom' | 'dingtalk';

/** A school named as its book, the book's stand-in, the server pointed at it, and the book added. */
export const startSchoolBook = async (server: TestServer, call: Call, vendor: BookVendor, book: SchoolBook) => {
  const edu = eduSteps(server, call);
  const app = { id: `${vendor}-${book.name}`, secret: `secret-${book.name}` };
  const peer: BookPeer =
    vendor === 'wecom'
      ? await wecomBookPeer({ corpId: app.id, secret: app.secret }, book)
      : await dingtalkBookPeer({ appKey: app.id, appSecret: app.secret }, book);
  if (vendor === 'wecom') server.app.ctx.config.eduWecomApiUrl = peer.url;
  else server.app.ctx.config.eduDingtalkApiUrl = peer.url;
  const schoolId = await edu.addSchool(book.name);
  const token = await edu.operatorToken();
  const added = edu.ok<{ id: number }>(
    await call(
      'POST',
      pathOf(routes.addAddressBook.path, { id: schoolId }),
      { vendor, app_id: app.id, secret: app.secret },
      { token },
    ),
  );
  /** An operator's sync: the roster job it stored (a preview, or held). */
  const sync = async () =>
    edu.ok<BookJob>(await call('POST', pathOf(routes.syncAddressBook.path, { id: added.id }), {}, { token }));
  const confirm = async (jobId: number, acceptRemovals?: boolean) =>
    call<BookJob>(
      'POST',
      pathOf(routes.confirmRosterImport.path, { id: jobId }),
      acceptRemovals === undefined ? {} : { accept_removals: acceptRemovals },
      { token },
    );
  return { peer, schoolId, bookId: added.id, sync, confirm, edu, token };
};
