/** Performance (§7): the five web-vitals, each reported once its value is final. */
import { onCLS, onFCP, onINP, onLCP, onTTFB } from 'web-vitals';

export type VitalReport = (name: string, value: number) => void;

export const watchVitals = (report: VitalReport) => {
  const forward = ({ name, value }: { name: string; value: number }) =>
    // CLS is a unitless score; the others are milliseconds.
    report(name, name === 'CLS' ? Math.round(value * 1e4) / 1e4 : Math.round(value));
  for (const on of [onLCP, onINP, onCLS, onFCP, onTTFB]) on(forward);
};
