/**
 * What opening sealed records costs a read (store/sealed-records.ts): the plugin looks over every row
 * a query answers and opens the values in the sealed form. Per row of `users` (27 columns), beside the
 * same rows handed back untouched (no sealer: the baseline): an adult's row (nothing to open), a child's
 * with its four sealed values read for the first time (four AES-GCM openings), and read again (the
 * values opened lately are remembered). Prints the median of ROUNDS and the machine's load average.
 *
 *   node bench/sealed-records/run.mjs
 */
import { createSecretKey, randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import type { UnknownRow } from 'kysely';
import { type RecordKeys, recordSealer, sealRecord } from '../../packages/server/src/services/security/record-keys.ts';
import { openRows, type RecordSealer } from '../../packages/server/src/store/sealed-records.ts';

const ROWS = 100_000;
const ROUNDS = 5;

const keys: RecordKeys = {
  current: 1,
  generations: new Map([[1, createSecretKey(randomBytes(32))]]),
  indexKey: createSecretKey(randomBytes(32)),
};
// Keys given, never reloaded: the database and keyring are not used.
const sealer = recordSealer(undefined as never, undefined as never, keys);

const adult = (): UnknownRow => ({
  id: 1,
  pid: 'edupass',
  phone: '13900001111',
  phone_verified: 1,
  email: 'wang@example.org',
  email_verified: 1,
  username: 'ron',
  username_key: 'ron',
  password_hash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA',
  weak_password: 0,
  nickname: '用户12345678',
  avatar_url: '',
  fullname: '王大海',
  sex: 1,
  birthday: null,
  qq: '',
  description: 'reading',
  grade: null,
  role: 'user',
  blocked_at: null,
  erase_at: null,
  created_at: 1,
  updated_at: 2,
  birth_year_month: '1986-05',
  age_band: 'adult',
  consent_state: null,
});
const child = (): UnknownRow => ({
  ...adult(),
  phone: sealRecord(keys, 'phone', '13900002222'),
  email: sealRecord(keys, 'email', 'kid@example.org'),
  fullname: sealRecord(keys, 'fullname', '王小雨'),
  birth_year_month: sealRecord(keys, 'birth_year_month', '2016-05'),
  age_band: '8_13',
});
const once = child();

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

/** µs per row: each row opened as a query's answer is (one row a query). */
const timed = async (use: RecordSealer | undefined, make: () => UnknownRow) => {
  const rows = Array.from({ length: ROWS }, make);
  const start = performance.now();
  for (const row of rows) {
    const opening = openRows(use, [row]);
    if (opening !== undefined) await opening;
  }
  return ((performance.now() - start) * 1000) / ROWS;
};

const cases: [label: string, use: RecordSealer | undefined, make: () => UnknownRow][] = [
  ['no sealer (baseline)', undefined, adult],
  ["an adult's row", sealer, adult],
  ["a child's row, first read", sealer, child],
  ["a child's row, read again", sealer, () => ({ ...once })],
];
const baseline: number[] = [];
for (const [label, use, make] of cases) {
  const figures: number[] = [];
  for (let round = 0; round < ROUNDS; round++) figures.push(await timed(use, make));
  if (use === undefined) baseline.push(median(figures));
  const ratio = baseline[0] === undefined ? '' : ` (+${(median(figures) - baseline[0]).toFixed(2)} µs)`;
  console.log(`${label}: ${median(figures).toFixed(2)} µs a row${use === undefined ? '' : ratio}`);
}
console.log(
  `load average: ${loadavg()
    .map((load) => load.toFixed(2))
    .join(' ')}`,
);
