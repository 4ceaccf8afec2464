/** The dashboards' controls: product, time range (and an optional event key), applied together. */

import type { UsageBucket as Bucket, UsageWindow as Window } from '@edupass/protocol';
import { DAY_MS, HOUR_MS } from '@edupass/protocol';
import { type FormEvent, useId, useState } from 'react';
import { useConsoleText } from '../i18n/i18n.ts';

const RANGES = {
  '24h': DAY_MS,
  '7d': 7 * DAY_MS,
  '30d': 30 * DAY_MS,
  '90d': 90 * DAY_MS,
} as const;
export type RangeName = keyof typeof RANGES;

export interface WindowChoice {
  window: Window;
  bucket: Bucket;
  key: string;
}

/** The window ending at the next whole hour, so buckets line up and repeated queries match. */
export const windowFor = (product: string, range: RangeName, now = Date.now()): { window: Window; bucket: Bucket } => {
  const to = Math.ceil((now + 1) / HOUR_MS) * HOUR_MS;
  return { window: { product, from: to - RANGES[range], to }, bucket: range === '24h' ? 'hour' : 'day' };
};

export const DEFAULT_PRODUCT = import.meta.env.VITE_EDUPASS_PRODUCT_CODE ?? 'edupass';

export const WindowPicker = ({ withKey, onApply }: { withKey: boolean; onApply(choice: WindowChoice): void }) => {
  const { t } = useConsoleText();
  const id = useId();
  const [product, setProduct] = useState(DEFAULT_PRODUCT);
  const [range, setRange] = useState<RangeName>('7d');
  const [key, setKey] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply({ ...windowFor(product.trim() || DEFAULT_PRODUCT, range), key: key.trim() });
  };
  return (
    <form className="console-filters" onSubmit={submit}>
      <label htmlFor={`${id}-product`}>{t('range.product')}</label>
      <input id={`${id}-product`} value={product} maxLength={64} onChange={(e) => setProduct(e.target.value)} />
      <label htmlFor={`${id}-range`}>{t('range.range')}</label>
      <select id={`${id}-range`} value={range} onChange={(e) => setRange(e.target.value as RangeName)}>
        {(Object.keys(RANGES) as RangeName[]).map((name) => (
          <option key={name} value={name}>
            {t(`range.${name}`)}
          </option>
        ))}
      </select>
      {withKey ? (
        <>
          <label htmlFor={`${id}-key`}>{t('range.key')}</label>
          <input id={`${id}-key`} value={key} maxLength={128} onChange={(e) => setKey(e.target.value)} />
        </>
      ) : null}
      <button type="submit" className="console-button">
        {t('range.apply')}
      </button>
    </form>
  );
};
