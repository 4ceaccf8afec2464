/**
 * Roster imports (services/edu/roster/), read by `loadConfig` (config.ts) with the same rules: two
 * settings, each a school's or an operator's choice, and the bounds of an uploaded zip, which are not.
 *
 * EDU_ROSTER_HOLD_PERCENT  a file that would remove more than this percent of a school's listed people
 *                     is held until its removals are accepted (10; 0–100): how much a wrong export may
 *                     undo before someone looks is each platform's call.
 * EDU_ROSTER_JOB_HOURS  hours a job (its rows, pupils' names and its preview) is kept from its upload,
 *                     confirmed or not, before the hourly sweep deletes it (72; 1–720): a retention
 *                     choice, like AUDIT_RETENTION_DAYS.
 * EDU_WECOM_API_URL   WeCom's server API, where a school's home-school address book is read
 *                     (https://qyapi.weixin.qq.com); tests point it at the test kit's stand-in.
 * EDU_DINGTALK_API_URL  DingTalk's server API, for its K12 home-school address book
 *                     (https://oapi.dingtalk.com). Both also answer who signed in with a school's work app.
 * EDU_WECOM_LOGIN_URL  WeCom's QR-code web login (https://login.work.weixin.qq.com).
 * EDU_WECOM_OAUTH_URL  WeCom's in-app OAuth page (https://open.weixin.qq.com).
 * EDU_DINGTALK_LOGIN_URL  DingTalk's QR-code login (https://login.dingtalk.com).
 * EDU_DINGTALK_OPENAPI_URL  DingTalk's newer API, where a QR login's code becomes the person's unionId
 *                     (https://api.dingtalk.com).
 * EDU_DINGTALK_JSAPI_URL  DingTalk's JSAPI script, which the in-app sign-in page loads for its free-login
 *                     code (https://g.alicdn.com/dingding/dingtalk-jsapi/3.2.0/dingtalk.open.js).
 *
 * The zip bounds below (bounded-zip.ts; a workbook's .xlsx is held to them too) defend the server
 * against a zip bomb, and no import ever came near them: the 25,000-pupil set of
 * `npm run bench:roster` zips to 0.27 MB with a users.csv of 1.6 MB packed 11 to 1, and ten times
 * that set (250,000 pupils, 40 schools) to 2.8 MB, users.csv 16.5 MB, packed 11 to 1. They were once
 * settings (EDU_ROSTER_ZIP_MAX_BYTES, EDU_ROSTER_ENTRIES_MAX, EDU_ROSTER_ENTRY_MAX_BYTES,
 * EDU_ROSTER_RATIO_MAX); one still set is warned about at start (RETIRED_ROSTER_VARIABLES).
 */
import type { Readers } from './readers.ts';

const MiB = 1024 * 1024;

/** The bounds of a roster zip: fixed, each with its reason. */
export const ROSTER_ZIP_BOUNDS = {
  /**
   * The zip itself: the largest upload the API takes is this zip in base64 (ROSTER_UPLOAD_MAX, the
   * route's body limit, in the protocol), so a larger bound could not be reached; seven times the zip
   * of 250,000 pupils.
   */
  eduRosterZipMaxBytes: 20 * MiB,
  /**
   * Entries in its directory: the manifest and the files the import reads, with room for the others an
   * export puts beside them. Counting costs nothing (an entry not read is never inflated); the bound
   * stops a directory of thousands.
   */
  eduRosterEntriesMax: 16,
  /**
   * One entry unpacked (and a template CSV sent as it is); the entries together, four times this.
   * Four times the users.csv of 250,000 pupils: an import that size holds a whole city's schools.
   */
  eduRosterEntryMaxBytes: 64 * MiB,
  /**
   * Packing ratio of an entry over 4 KiB: a roster CSV packs about 11 to 1, a zip bomb a thousand to
   * one or more (gigabytes of one byte in kilobytes).
   */
  eduRosterRatioMax: 200,
} as const;

export interface RosterConfig {
  /** Percent of a school's roster accounts a file may remove before it is held for an explicit confirmation. */
  eduRosterHoldPercent: number;
  /** Hours a roster job (its rows, names and preview) is kept from its upload, confirmed or not. */
  eduRosterJobHours: number;
  /** Roster zips: the zip's size, its entries, one entry's unpacked size and packing ratio (fixed). */
  eduRosterZipMaxBytes: number;
  eduRosterEntriesMax: number;
  eduRosterEntryMaxBytes: number;
  eduRosterRatioMax: number;
  /** WeCom's and DingTalk's server APIs, where address books are read (services/edu/roster/address-books.ts). */
  eduWecomApiUrl: string;
  eduDingtalkApiUrl: string;
  /** The work apps' sign-in pages and calls (services/edu/federation/workapp/). */
  eduWecomLoginUrl: string;
  eduWecomOauthUrl: string;
  eduDingtalkLoginUrl: string;
  eduDingtalkOpenApiUrl: string;
  eduDingtalkJsapiUrl: string;
}

export const readRosterConfig = ({ int, url }: Readers): RosterConfig => ({
  eduRosterHoldPercent: int('EDU_ROSTER_HOLD_PERCENT', 10, 0, 100),
  eduRosterJobHours: int('EDU_ROSTER_JOB_HOURS', 72, 1, 720),
  eduWecomApiUrl: url('EDU_WECOM_API_URL', 'https://qyapi.weixin.qq.com', ['https:', 'http:']).replace(/\/+$/, ''),
  eduDingtalkApiUrl: url('EDU_DINGTALK_API_URL', 'https://oapi.dingtalk.com', ['https:', 'http:']).replace(/\/+$/, ''),
  eduWecomLoginUrl: base(url, 'EDU_WECOM_LOGIN_URL', 'https://login.work.weixin.qq.com'),
  eduWecomOauthUrl: base(url, 'EDU_WECOM_OAUTH_URL', 'https://open.weixin.qq.com'),
  eduDingtalkLoginUrl: base(url, 'EDU_DINGTALK_LOGIN_URL', 'https://login.dingtalk.com'),
  eduDingtalkOpenApiUrl: base(url, 'EDU_DINGTALK_OPENAPI_URL', 'https://api.dingtalk.com'),
  eduDingtalkJsapiUrl: url(
    'EDU_DINGTALK_JSAPI_URL',
    'https://g.alicdn.com/dingding/dingtalk-jsapi/3.2.0/dingtalk.open.js',
    ['https:', 'http:'],
  ),
  ...ROSTER_ZIP_BOUNDS,
});

/** A vendor's address without its trailing slash. */
const base = (url: Readers['url'], name: string, fallback: string) =>
  url(name, fallback, ['https:', 'http:']).replace(/\/+$/, '');

const { eduRosterZipMaxBytes, eduRosterEntriesMax, eduRosterEntryMaxBytes, eduRosterRatioMax } = ROSTER_ZIP_BOUNDS;

/** Where the fixed bounds are explained, for whoever still sets a variable that set one. */
const BOUNDS_DOC = 'a bound now, not a setting (docs/education.md, "Bounded archives")';

/** The variables that once set the zip bounds, each with the bound that holds now (config/variable-names.ts). */
export const RETIRED_ROSTER_VARIABLES: Readonly<Record<string, string>> = {
  EDU_ROSTER_ZIP_MAX_BYTES: `a roster zip may be ${eduRosterZipMaxBytes} bytes, the largest upload the API takes; ${BOUNDS_DOC}`,
  EDU_ROSTER_ENTRIES_MAX: `a roster zip may hold ${eduRosterEntriesMax} entries; ${BOUNDS_DOC}`,
  EDU_ROSTER_ENTRY_MAX_BYTES: `a roster file may unpack to ${eduRosterEntryMaxBytes} bytes; ${BOUNDS_DOC}`,
  EDU_ROSTER_RATIO_MAX: `a roster file may be packed ${eduRosterRatioMax} to 1; ${BOUNDS_DOC}`,
};
