/**
 * The yearly report on "Staff access and requests": for a year, the figures as JSON, as CSV in the
 * filing's order (protocol's yearly-report.ts, labelled in the console's language), or as a printable
 * page — the same numbered fields in a table per section, which the print stylesheet prints alone
 * (console.css, `@media print`). Its words in both of the console's languages are kept here.
 */
import {
  type YearlyReport as Report,
  type ReportLanguage,
  yearlyReportCsv,
  yearlyReportSections,
} from '@edupass/protocol';
import { FormError } from '@edupass/ui-kit/status.tsx';
import { useAction } from '@edupass/ui-kit/use-action.ts';
import { useEffect, useState } from 'react';
import { yearlyReport } from '../api/rights-api.ts';
import { type ConsoleLocale, screenWords, useConsoleText } from '../i18n/i18n.ts';
import { download } from '../ui/download.ts';

const WORDS = {
  en: {
    reportTitle: 'Yearly report',
    year: 'Year',
    downloadJson: 'Download JSON',
    downloadCsv: 'Download CSV',
    showPrintable: 'Show the printable report',
    print: 'Print',
    formTitle: "Yearly compliance audit of minors' personal information: figures for {year}",
    formBasis:
      'Regulations on the Protection of Minors Online, art. 37. Children (under 14) and minors (under 18) counted apart; exact counts kept as events happened, China time.',
    made: 'Made by EduPass on {time}.',
    number: 'No.',
    item: 'Item',
    value: 'Value',
  },
  'zh-CN': {
    reportTitle: '年度报告',
    year: '年份',
    downloadJson: '下载 JSON',
    downloadCsv: '下载 CSV',
    showPrintable: '显示打印版',
    print: '打印',
    formTitle: '未成年人个人信息保护合规审计：{year} 年度数据',
    formBasis:
      '依据《未成年人网络保护条例》第三十七条。儿童（不满十四周岁）与未成年人（不满十八周岁）分列；按事件发生时记录的准确计数，北京时间。',
    made: '由 EduPass 于 {time} 生成。',
    number: '序号',
    item: '项目',
    value: '数值',
  },
} as const satisfies Record<ConsoleLocale, Record<string, string>>;

const useWords = screenWords(WORDS);

/** The report's fields, section by section, as the printed page shows them. */
const PrintableReport = ({ report, language }: { report: Report; language: ReportLanguage }) => {
  const w = useWords();
  const { time } = useConsoleText();
  // While it is shown, the print stylesheet prints it alone.
  useEffect(() => {
    document.body.classList.add('console-printing-report');
    return () => document.body.classList.remove('console-printing-report');
  }, []);
  return (
    <article className="console-print-report" aria-labelledby="print-report-title">
      <h2 id="print-report-title">{w('formTitle', { year: String(report.year) })}</h2>
      <p>{w('formBasis')}</p>
      {yearlyReportSections(report, language).map((section) => (
        <section key={section.heading} aria-label={section.heading}>
          <h3>{section.heading}</h3>
          <table className="console-table">
            <thead>
              <tr>
                <th scope="col">{w('number')}</th>
                <th scope="col">{w('item')}</th>
                <th scope="col">{w('value')}</th>
              </tr>
            </thead>
            <tbody>
              {section.rows.map((row) => (
                <tr key={row.number}>
                  <td>{row.number}</td>
                  <th scope="row">{row.field}</th>
                  <td className="console-number">{row.value ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ))}
      <p className="console-muted">{w('made', { time: time(Date.now()) })}</p>
    </article>
  );
};

export const YearlyReport = () => {
  const w = useWords();
  const { errorText, locale } = useConsoleText();
  const action = useAction(errorText);
  const [year, setYear] = useState(String(new Date().getFullYear()));
  const [printable, setPrintable] = useState<Report>();
  const save = (format: 'json' | 'csv') =>
    action.run(async () => {
      const report = await yearlyReport(Number(year));
      if (format === 'json')
        download(`edupass-yearly-${year}.json`, 'application/json', JSON.stringify(report, null, 2));
      // With a byte-order mark, so spreadsheet programs read the Chinese labels as UTF-8.
      else download(`edupass-yearly-${year}.csv`, 'text/csv', `\uFEFF${yearlyReportCsv(report, locale)}`);
    });
  const show = () =>
    action.run(async () => {
      setPrintable(await yearlyReport(Number(year)));
    });
  return (
    <>
      <section className="console-card" aria-labelledby="rights-report">
        <h2 id="rights-report">{w('reportTitle')}</h2>
        <div className="console-filters">
          <label htmlFor="report-year">{w('year')}</label>
          <input id="report-year" inputMode="numeric" value={year} onChange={(e) => setYear(e.target.value)} />
          <button type="button" className="console-button" disabled={action.busy} onClick={() => void save('json')}>
            {w('downloadJson')}
          </button>
          <button type="button" className="console-button" disabled={action.busy} onClick={() => void save('csv')}>
            {w('downloadCsv')}
          </button>
          <button type="button" className="console-button" disabled={action.busy} onClick={() => void show()}>
            {w('showPrintable')}
          </button>
          {printable ? (
            <button type="button" className="console-button" onClick={() => window.print()}>
              {w('print')}
            </button>
          ) : null}
        </div>
        <FormError message={action.error} />
      </section>
      {printable ? <PrintableReport report={printable} language={locale} /> : null}
    </>
  );
};
