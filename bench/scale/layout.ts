/**
 * The two databases' sizes and how their accounts are laid out: user ids in consecutive ranges
 * (operators, school admins, teachers, guardians, other adults, pupils), so the SQL that seeds them
 * and the paths that measure them agree on who is who without asking the database.
 */

export interface Size {
  label: 'small' | 'large';
  /** Pupil accounts; the other accounts follow from it (below). */
  pupils: number;
  /** Rows of each growing table (sessions, tokens, logs, events). */
  rows: number;
}

/** `large` pupils and rows; the small database has 100× fewer pupils and 10× fewer rows. */
export const sizesFor = (large: number): [Size, Size] => [
  { label: 'small', pupils: Math.round(large / 100), rows: Math.round(large / 10) },
  { label: 'large', pupils: large, rows: large },
];

/** A range of user ids: `from` … `from + count - 1`. */
export interface Range {
  from: number;
  count: number;
}

export interface Layout {
  size: Size;
  schools: number;
  classes: number;
  operators: Range;
  admins: Range;
  teachers: Range;
  guardians: Range;
  adults: Range;
  pupils: Range;
  /** Every account: ids 1 … users. */
  users: number;
}

export const OPERATORS = 20;
/** Pupils per class, and classes per school: 500 schools and 25,000 classes for a million pupils. */
const PUPILS_PER_CLASS = 40;
const CLASSES_PER_SCHOOL = 50;
/** A guardian account for every fourth pupil; other adults (no school, no child): one per ten pupils. */
export const PUPILS_PER_GUARDIAN = 4;
const PUPILS_PER_ADULT = 10;

export const layoutOf = (size: Size): Layout => {
  const classes = Math.max(CLASSES_PER_SCHOOL, Math.round(size.pupils / PUPILS_PER_CLASS));
  const schools = Math.max(1, Math.round(classes / CLASSES_PER_SCHOOL));
  let next = 1;
  const range = (count: number): Range => {
    const taken = { from: next, count };
    next += count;
    return taken;
  };
  const operators = range(OPERATORS);
  const admins = range(schools);
  const teachers = range(classes);
  const guardians = range(Math.round(size.pupils / PUPILS_PER_GUARDIAN));
  const adults = range(Math.round(size.pupils / PUPILS_PER_ADULT));
  const pupils = range(size.pupils);
  return { size, schools, classes, operators, admins, teachers, guardians, adults, pupils, users: next - 1 };
};

/** The class of pupil `k` (0-based): pupils go round the classes, so every class fills alike. */
export const classOfPupil = (layout: Layout, k: number) => 1 + (k % layout.classes);

/** The school of class `c`: consecutive classes share a school. */
export const schoolOfClass = (layout: Layout, c: number) =>
  1 + Math.floor((c - 1) / Math.ceil(layout.classes / layout.schools));

/** The phone number of account `id` (every account but pupils has one; all distinct). */
export const phoneOf = (id: number) =>
  `${PHONE_PREFIXES[id % PHONE_PREFIXES.length]}${String((id * 7919) % 100_000_000).padStart(8, '0')}`;
export const PHONE_PREFIXES = ['139', '138', '137', '136', '135', '158', '186', '189'];

/** The same as SQL over an id column (`phoneOf`), kept beside it so the two cannot drift apart. */
export const PHONE_SQL = (id: string) =>
  `(array[${PHONE_PREFIXES.map((p) => `'${p}'`).join(',')}])[1 + ${id} % ${PHONE_PREFIXES.length}] || lpad(((${id}::bigint * 7919) % 100000000)::text, 8, '0')`;

/** Nicknames (unique, as the schema wants them): one of forty common ones and the id. */
export const NICKNAMES = [
  '小明',
  '晓华',
  '阿强',
  '静静',
  '小雨',
  '天天',
  '笑笑',
  '乐乐',
  '欢欢',
  '洋洋',
  '明月',
  '清风',
  '星辰',
  '大海',
  '阳光',
  '彩虹',
  '白云',
  '小鱼',
  '花花',
  '豆豆',
  'Leo',
  'Amy',
  'Tom',
  'Lucy',
  'Jack',
  'Mia',
  'Ben',
  'Zoe',
  'Sam',
  'Ivy',
  '书虫',
  '学霸',
  '跑跑',
  '糖糖',
  '果果',
  '悠悠',
  '朵朵',
  '亮亮',
  '壮壮',
  '妞妞',
];
export const NICKNAME_SQL = (id: string) =>
  `(array[${NICKNAMES.map((n) => `'${n}'`).join(',')}])[1 + ${id} % ${NICKNAMES.length}] || ${id}`;
export const nicknameOf = (id: number) => `${NICKNAMES[id % NICKNAMES.length]}${id}`;

/** Usernames of adults who chose one (every third): a word and the id. */
export const USERNAME_WORDS = ['panda', 'tiger', 'moon', 'river', 'cloud', 'star'];
export const USERNAME_SQL = (id: string) =>
  `(array[${USERNAME_WORDS.map((w) => `'${w}'`).join(',')}])[1 + ${id} % ${USERNAME_WORDS.length}] || '_' || ${id}`;
export const usernameOf = (id: number) => `${USERNAME_WORDS[id % USERNAME_WORDS.length]}_${id}`;
