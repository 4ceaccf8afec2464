/**
 * Login cards: an HTML sheet for A4 paper (8 cards a page) with each pupil's name, class, username,
 * initial password, guardian link code and a QR code. The QR code is a link to the web client's badge sign-in carrying a
 * new sign-in badge (192 random bits, stored as its SHA-256; never the password); printing cards
 * revokes the pupils' earlier badges, so a lost old card stops working. Each card also carries a
 * guardian link code (guardian-links.ts; 30 days, once), replacing the one of an earlier card, and
 * says what the pupil's own password does to it (it ends, unless the school keeps cards working).
 */
import QRCode from 'qrcode';
import type { Context } from '../../../context.ts';
import { insertBadges, pupilAccountsOf, revokeBadges } from '../../../store/edu/school/pupils.ts';
import { findSchool } from '../../../store/edu/school/schools.ts';
import { openInitialPassword } from '../../passwords/initial-passwords.ts';
import { randomToken, sha256 } from '../../security/hashing.ts';
import { inTransaction } from '../../webhooks/events.ts';
import { requirePupilsAccess } from '../access.ts';
import { logPupilReads } from '../access-log.ts';
import { eduAudit } from '../audit.ts';
import { cardGuardianCodes } from '../family/guardian-links.ts';
import { type CardLanguage, cardTexts } from './card-texts.ts';
import { classToTeach, holdSchoolAccounts, pupilsForCards, requireOpen } from './pupils.ts';

/** 24 random bytes: 192 bits, past the 128 a badge needs. */
const BADGE_BYTES = 24;

/** The web client's page that signs in with the badge in its fragment (kept out of server logs). */
export const badgeUrl = (ctx: Context, badge: string) => `${ctx.config.publicUrl}/badge#${badge}`;

/**
 * The QR code of a badge link as SVG. One byte-mode segment and a fixed mask pattern: the library
 * would otherwise search for the best split into modes and score all eight masks, most of a card
 * sheet's time (a hundred cards: about 300 ms down to 60). Any mask is valid; it only evens out the
 * dark and light areas, which matters little for a short link printed at 34 mm.
 */
const badgeQrSvg = (link: string) =>
  QRCode.toString([{ data: Buffer.from(link, 'utf8'), mode: 'byte' }], {
    type: 'svg',
    margin: 1,
    errorCorrectionLevel: 'M',
    maskPattern: 0,
  });

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

interface Card {
  name: string;
  className: string;
  username: string;
  password: string;
  qrSvg: string;
  guardianCode: string;
}

/**
 * The address a pupil types to sign in, as short as it goes: the site's host and path without the
 * scheme (a browser adds it) or a trailing slash (`edupass.example.cn`).
 */
export const cardAddress = (publicUrl: string) => {
  const url = new URL(publicUrl);
  return `${url.host}${url.pathname}`.replace(/\/+$/, '');
};

/**
 * `keep`: the school keeps cards working after a pupil's own password (the card says which).
 * Each card: the QR code and the details side by side, the sign-in address and the hint under both
 * across the card. The
 * details' labels wrap within 16 mm and the values break anywhere, so a long name or a Latin class
 * name stays inside the card (8 cards of 66 mm fill an A4 page).
 */
const renderSheet = (cards: Card[], lang: CardLanguage, keep: boolean, site: string) => {
  const t = cardTexts[lang];
  const afterPassword = keep ? t.keepsAfterPassword : t.endsWithPassword;
  const items = cards
    .map(
      (c) => `<section class="card">
<div class="qr" role="img" aria-label="${escapeHtml(t.qr)}">${c.qrSvg}</div>
<dl><dt>${t.name}</dt><dd class="name">${escapeHtml(c.name)}</dd>
<dt>${t.className}</dt><dd>${escapeHtml(c.className)}</dd>
<dt>${t.username}</dt><dd class="username">${escapeHtml(c.username)}</dd>
<dt>${t.password}</dt><dd class="password">${escapeHtml(c.password)}</dd>
<dt>${t.guardianCode}</dt><dd class="guardian-code">${escapeHtml(c.guardianCode)}</dd></dl>
<p class="site">${t.site} <b>${escapeHtml(site)}</b></p>
<p class="hint">${[t.hint, afterPassword, t.guardianHint].join(t.sentenceGap)}</p></section>`,
    )
    .join('\n');
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>${t.title}</title>
<style>
@page{size:A4;margin:10mm}
*{box-sizing:border-box}
body{margin:0;font-family:system-ui,"PingFang SC","Microsoft YaHei",sans-serif;color:#000}
.sheet{display:grid;grid-template-columns:1fr 1fr;gap:4mm}
.card{border:1px dashed #555;padding:4mm;height:66mm;display:grid;grid-template-columns:34mm minmax(0,1fr);grid-template-rows:auto auto 1fr;gap:1.5mm 3mm;overflow:hidden;break-inside:avoid;page-break-inside:avoid}
.qr{width:34mm}.qr svg{width:34mm;height:34mm;display:block}
dl{margin:0;display:grid;grid-template-columns:minmax(0,16mm) minmax(0,1fr);gap:0.8mm 2mm;font-size:10pt;align-content:start;align-items:baseline}
dt{color:#333;font-size:8pt;line-height:1.15}dd{margin:0;font-weight:600;overflow-wrap:anywhere}
.username,.password,.guardian-code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:11pt}
.site{grid-column:1/-1;margin:0;font-size:9pt}.site b{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:11pt;white-space:nowrap}
.hint{grid-column:1/-1;font-size:7pt;line-height:1.3;color:#333;margin:0;align-self:end}
@media screen{body{padding:8px}.sheet{max-width:190mm}}
@media screen and (max-width:600px){.sheet{grid-template-columns:1fr}.card{height:auto}}
</style></head><body><main class="sheet" aria-label="${t.title}">
${items}
</main></body></html>`;
};

export const cardSheet = async (
  ctx: Context,
  callerId: number,
  classId: number,
  userIds: number[] | undefined,
  lang: CardLanguage,
) => {
  const found = await classToTeach(ctx, callerId, classId);
  requireOpen(found);
  const ids = await pupilsForCards(ctx, classId, userIds);
  // Printing shows passwords and mints badges: a reset's access, pupil by pupil.
  await requirePupilsAccess(ctx, callerId, classId, ids, 'reset');
  const accounts = (await pupilAccountsOf(ctx.db, ids)).sort((a, b) => Number(a.user_id) - Number(b.user_id));
  const badges = accounts.map(() => randomToken(BADGE_BYTES));
  const guardianCodes = await inTransaction(ctx, async (tx) => {
    await holdSchoolAccounts(tx, classId, ids);
    const now = tx.now();
    if (ids.length > 0) await revokeBadges(tx.db, ids, now);
    if (accounts.length > 0) {
      await insertBadges(
        tx.db,
        accounts.map((a, i) => ({
          token_hash: sha256(badges[i] as string),
          user_id: Number(a.user_id),
          created_at: now,
          class_id: classId,
        })),
      );
    }
    await logPupilReads(tx, callerId, ids, ['name', 'class', 'username', 'initial_password'], 'card_sheet');
    await eduAudit(tx, callerId, 'edu.cards.print', `class:${classId}`, `${accounts.length} cards`);
    return cardGuardianCodes(
      tx,
      callerId,
      accounts.map((a) => Number(a.user_id)),
    );
  });
  const cards = await Promise.all(
    accounts.map(async (a, i) => ({
      name: a.display_name,
      className: found.name,
      username: a.username ?? '',
      password: openInitialPassword(ctx, Number(a.user_id), a.initial_password_sealed) ?? cardTexts[lang].changed,
      qrSvg: await badgeQrSvg(badgeUrl(ctx, badges[i] as string)),
      guardianCode: guardianCodes[i] ?? '',
    })),
  );
  const school = await findSchool(ctx.db, found.school_id);
  return {
    html: renderSheet(cards, lang, school?.cards_keep_working === 1, cardAddress(ctx.config.publicUrl)),
    count: cards.length,
  };
};
