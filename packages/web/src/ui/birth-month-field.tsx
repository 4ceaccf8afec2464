/**
 * The sign-up's age question: the year and month of birth, two lists with nothing chosen at first.
 * Worded neutrally and without a hint of what an answer changes, so nobody is nudged to say older.
 */
import { useId } from 'react';
import { useI18n } from '../i18n/i18n.ts';
import type { useTouched } from './validation.ts';

/** The oldest year offered: a hundred years back. */
const YEARS_BACK = 100;

export const BirthMonthField = ({
  value,
  onValue,
  touched,
}: {
  /** `YYYY-MM` once both are chosen; '' before. */
  value: string;
  onValue(value: string): void;
  touched: ReturnType<typeof useTouched>;
}) => {
  const { t } = useI18n();
  const id = useId();
  const [year = '', month = ''] = value.split('-');
  const thisYear = new Date().getFullYear();
  const years = Array.from({ length: YEARS_BACK + 1 }, (_, i) => String(thisYear - i));
  const months = Array.from({ length: 12 }, (_, i) => String(i + 1).padStart(2, '0'));
  const error = touched.shown('birth') && !birthMonthChosen(value) ? t('age.required') : null;
  const set = (nextYear: string, nextMonth: string) => onValue(`${nextYear}-${nextMonth}`);
  return (
    <fieldset
      className={`field birth-month${error ? ' invalid' : ''}`}
      aria-describedby={error ? `${id}-error` : undefined}
    >
      <legend>{t('age.question')}</legend>
      <div className="field-row">
        <select
          aria-label={t('age.year')}
          value={year}
          onChange={(event) => set(event.target.value, month)}
          onBlur={touched.blur('birth')}
          aria-invalid={error ? true : undefined}
        >
          <option value="">{t('age.year')}</option>
          {years.map((y) => (
            <option key={y} value={y}>
              {y}
            </option>
          ))}
        </select>
        <select
          aria-label={t('age.month')}
          value={month}
          onChange={(event) => set(year, event.target.value)}
          onBlur={touched.blur('birth')}
          aria-invalid={error ? true : undefined}
        >
          <option value="">{t('age.month')}</option>
          {months.map((m) => (
            <option key={m} value={m}>
              {t('age.monthName', { n: Number(m) })}
            </option>
          ))}
        </select>
      </div>
      {error ? (
        <p id={`${id}-error`} className="error-text">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
};

/** Whether the answer is complete (both lists chosen). */
export const birthMonthChosen = (value: string) => /^\d{4}-\d{2}$/.test(value);
