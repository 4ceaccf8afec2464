/**
 * The yearly report in the order of the filing: the yearly compliance audit of minors' personal
 * information (Regulations on the Protection of Minors Online, art. 37), filed with the city-level
 * cyberspace office by the end of January through the CAC's personal-information protection system.
 * The system's own form (its 填报说明, first edition) is published only inside that system, so its
 * fields are not reproduced here; what is public is that children under 14 and minors under 18 are
 * reported apart. The order below follows that: the period, children, minors, guardians' consent,
 * data-rights requests, staff access, deletions. Every field is always present (0 when nothing
 * happened), so one year's file lines up with the next.
 *
 * `yearlyReportRows` gives the fields numbered and labelled in one language; `yearlyReportCsv` writes
 * them as CSV, the same for the CLI (`edupass report yearly --csv`) and the console's download, whose
 * printable page shows the same rows.
 */
import { CHINA_OFFSET_MS } from './durations.ts';
import type { YearlyReport } from './rights-routes.ts';

export type ReportLanguage = 'zh-CN' | 'en';

type Value = number | string | null;
interface Field {
  zh: string;
  en: string;
  value: (report: YearlyReport) => Value;
}
interface Section {
  zh: string;
  en: string;
  fields: Field[];
}

const CHILD_BANDS = ['under_8', '8_13'] as const;
const sum = (counts: Record<string, number>, keys?: readonly string[]) =>
  (keys ?? Object.keys(counts)).reduce((total, key) => total + (counts[key] ?? 0), 0);
/** A unix-ms instant as its China-time date, `YYYY-MM-DD`. */
const chinaDate = (at: number) => new Date(at + CHINA_OFFSET_MS).toISOString().slice(0, 10);

const field = (zh: string, en: string, value: Field['value']): Field => ({ zh, en, value });

export const YEARLY_REPORT_FORM: readonly Section[] = [
  {
    zh: '报告期',
    en: 'Reporting period',
    fields: [
      field('年度', 'Year', (r) => r.year),
      field('起始日期（北京时间）', 'From (China time)', (r) => chinaDate(r.from)),
      field('截止日期（北京时间）', 'To (China time)', (r) => chinaDate(r.to)),
    ],
  },
  {
    zh: '儿童（不满十四周岁）个人信息',
    en: "Children's personal information (under 14)",
    fields: [
      field('本年新增儿童账号数', "Children's accounts opened in the year", (r) => r.minors.children_opened),
      field('年末儿童账号数', "Children's accounts at the year's end", (r) =>
        sum(r.minors.accounts_at_year_end, CHILD_BANDS),
      ),
      field('本年删除的儿童账号数', "Children's accounts erased in the year", (r) => r.minors.children_erased),
    ],
  },
  {
    zh: '未成年人（不满十八周岁，含儿童）个人信息',
    en: "Minors' personal information (under 18, children included)",
    fields: [
      field('本年新增未成年人账号数', "Minors' accounts opened in the year", (r) => r.minors.opened),
      field('年末未成年人账号数', "Minors' accounts at the year's end", (r) => sum(r.minors.accounts_at_year_end)),
      field('本年删除的未成年人账号数', "Minors' accounts erased in the year", (r) => r.minors.erased),
    ],
  },
  {
    zh: '监护人同意',
    en: "Guardians' consent",
    fields: [
      field('同意次数', 'Consents given', (r) => r.consents.granted),
      field('拒绝次数', 'Consents refused', (r) => r.consents.refused),
      field('撤回次数', 'Consents withdrawn', (r) => r.consents.withdrawn),
    ],
  },
  {
    zh: '个人信息权利请求',
    en: 'Data-rights requests',
    fields: [
      field('本年收到的请求数', 'Requests received in the year', (r) => sum(r.requests.made)),
      field('其中：查阅复制', 'of which: copy of one’s data', (r) => r.requests.made.export ?? 0),
      field('其中：更正', 'of which: correction', (r) => r.requests.made.correction ?? 0),
      field('其中：删除', 'of which: deletion', (r) => r.requests.made.deletion ?? 0),
      field('其中：反对', 'of which: objection', (r) => r.requests.made.objection ?? 0),
      field('本年处理完毕的请求数', 'Requests answered in the year', (r) => sum(r.requests.handled)),
      field('其中拒绝的请求数', 'of which refused', (r) => r.requests.refused),
      field('逾期答复的请求数', 'Answered after their due date', (r) => r.requests.answered_late),
      field('年末已逾期未答复的请求数', "Open and past due at the year's end", (r) => r.requests.open_late_at_year_end),
      field('平均答复天数', 'Average days to answer', (r) => r.requests.days_to_answer.average),
      field('最长答复天数', 'Longest days to answer', (r) => r.requests.days_to_answer.longest),
    ],
  },
  {
    zh: '工作人员访问个人信息',
    en: "Staff access to people's records",
    fields: [
      field('教师查阅次数', 'Reads by teachers', (r) => r.staff_accesses.reads.teacher ?? 0),
      field('运营人员查阅次数', 'Reads by operators', (r) => r.staff_accesses.reads.operator ?? 0),
      field('监护人查阅次数', 'Reads by guardians', (r) => r.staff_accesses.reads.guardian ?? 0),
      field(
        '运营人员查阅未成年人资料次数（均附理由）',
        "Operators' reads of minors' records (each with a reason)",
        (r) => r.staff_accesses.operator_reads_of_minors,
      ),
      field('被查阅资料的未成年人人数', 'Minors whose record was read', (r) => r.staff_accesses.people_read),
      field('其中：儿童人数', 'of which: children under 14', (r) => r.staff_accesses.children_read),
      field('查阅审批：申请', 'Access approvals asked', (r) => r.staff_accesses.approvals.requested),
      field('查阅审批：批准', 'Access approvals given', (r) => r.staff_accesses.approvals.approved),
      field('查阅审批：拒绝', 'Access approvals refused', (r) => r.staff_accesses.approvals.refused),
    ],
  },
  {
    zh: '账号删除',
    en: 'Account deletion',
    fields: [
      field('本人申请删除', 'Erased at the owner’s request', (r) => r.deletions.erased.user ?? 0),
      field('监护人申请删除', "Erased at a guardian's request", (r) => r.deletions.erased.guardian ?? 0),
      field('运营人员删除', 'Erased by an operator', (r) => r.deletions.erased.operator ?? 0),
      field(
        '未获监护人同意而删除',
        "Erased without a guardian's consent in time",
        (r) => r.deletions.erased.unconfirmed ?? 0,
      ),
      field('申请后撤销删除', 'Deletions cancelled by the owner', (r) => r.deletions.cancelled),
    ],
  },
];

const CHINESE_NUMBERS = ['一', '二', '三', '四', '五', '六', '七', '八', '九', '十'];

export interface ReportRow {
  /** `2.1`: the section's number and the field's. */
  number: string;
  section: string;
  field: string;
  value: Value;
}

/** The form's sections, numbered (一、 in Chinese, 1. in English) and labelled in `language`. */
export const yearlyReportSections = (report: YearlyReport, language: ReportLanguage) =>
  YEARLY_REPORT_FORM.map((section, s) => ({
    heading: language === 'en' ? `${s + 1}. ${section.en}` : `${CHINESE_NUMBERS[s]}、${section.zh}`,
    rows: section.fields.map(
      (f, i): ReportRow => ({
        number: `${s + 1}.${i + 1}`,
        section: language === 'en' ? section.en : section.zh,
        field: language === 'en' ? f.en : f.zh,
        value: f.value(report),
      }),
    ),
  }));

export const yearlyReportRows = (report: YearlyReport, language: ReportLanguage): ReportRow[] =>
  yearlyReportSections(report, language).flatMap((section) => section.rows);

const cell = (value: string) => (/[",\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);

const CSV_HEAD: Record<ReportLanguage, string> = { 'zh-CN': '序号,栏目,项目,数值', en: 'No.,Section,Item,Value' };

/** The report as CSV in the form's order, labelled in `language` (Chinese by default, as it is filed). */
export const yearlyReportCsv = (report: YearlyReport, language: ReportLanguage = 'zh-CN'): string => {
  const lines = yearlyReportRows(report, language).map((row) =>
    [row.number, row.section, row.field, row.value === null ? '' : String(row.value)].map(cell).join(','),
  );
  return `${CSV_HEAD[language]}\n${lines.join('\n')}\n`;
};
