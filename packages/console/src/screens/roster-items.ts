/**
 * The roster preview's words for what it names: the kinds of rows, the actions, the job's status, and
 * a class as a chooser names it — its title, grade and school year ("三年级二班 · 三年级 · 2026-2027"),
 * so two classes of one title are told apart. English and Chinese, as the rest of the screen.
 */
import type { RosterImport } from '../api/edu-api.ts';
import type { ConsoleLocale } from '../i18n/i18n.ts';

type Item = RosterImport['items'][number];

const WORDS = {
  en: {
    kind: { school: 'School', class: 'Class', pupil: 'Pupil', teacher: 'Teacher', person: 'Person' },
    action: { create: 'to create', match: 'matched', change: 'to change', remove: 'to remove' },
    status: { preview: 'waiting for your confirmation', held: 'held', applied: 'applied' },
    grades: ['Kindergarten', ...Array.from({ length: 12 }, (_, i) => `Grade ${i + 1}`), 'University or adult'],
  },
  'zh-CN': {
    kind: { school: '学校', class: '班级', pupil: '学生', teacher: '教师', person: '人员' },
    action: { create: '新建', match: '对应到已有的', change: '更改', remove: '移除' },
    status: { preview: '待确认', held: '已暂停', applied: '已导入' },
    grades: [
      '幼儿园',
      ...['一', '二', '三', '四', '五', '六'].map((n) => `${n}年级`),
      '初一',
      '初二',
      '初三',
      '高一',
      '高二',
      '高三',
      '大学/成人',
    ],
  },
} as const satisfies Record<
  ConsoleLocale,
  {
    kind: Record<string, string>;
    action: Record<string, string>;
    status: Record<string, string>;
    grades: readonly string[];
  }
>;

const wordOf = (table: Record<string, string>, key: string) => table[key] ?? key;

/** The preview's words in `locale`: a kind, an action, a status, and an item's name (classes with grade and year). */
export const rosterItemWords = (locale: ConsoleLocale) => {
  const words = WORDS[locale];
  return {
    kind: (kind: string) => wordOf(words.kind, kind),
    action: (action: string) => wordOf(words.action, action),
    status: (status: string) => wordOf(words.status, status),
    name: (item: Item) =>
      item.grade === undefined
        ? item.name
        : [item.name, words.grades[item.grade] ?? String(item.grade), item.school_year ?? '']
            .filter(Boolean)
            .join(' · '),
  };
};
