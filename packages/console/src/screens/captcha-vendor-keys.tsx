/**
 * Each vendor's keys and endpoints: what is in effect and where it comes from, and a form whose values
 * override configuration field by field. Secrets are typed into password fields and never shown back.
 * Clearing what the console set asks first, naming the vendor (and the field): configuration applies
 * again, which may leave the vendor without keys.
 */
import type { CaptchaVendorField, CaptchaVendorState } from '@edupass/protocol';
import { type FormEvent, useState } from 'react';
import { clearVendorKeys, setVendorKeys } from '../api/admin-api.ts';
import { useConsoleText } from '../i18n/i18n.ts';
import { ConsoleConfirm } from '../ui/confirm.tsx';
import { Card } from '../ui/table.tsx';
import type { Act } from './captcha-providers.tsx';

const FieldState = ({ field }: { field: CaptchaVendorField }) => {
  const { t } = useConsoleText();
  if (field.unreadable) return <>{t('captcha.unreadable')}</>;
  if (field.source === null) return <>{t('captcha.notSet')}</>;
  const source = t(`captcha.source.${field.source}`);
  return <>{field.value === undefined ? source : t('captcha.now', { value: field.value, source })}</>;
};

const VendorForm = ({ vendor, busy, act }: { vendor: CaptchaVendorState; busy: boolean; act: Act }) => {
  const { t } = useConsoleText();
  const [values, setValues] = useState<Record<string, string>>({});
  const [empty, setEmpty] = useState(false);
  const [custom, setCustom] = useState(false);
  const id = (field: string) => `captcha-key-${vendor.name}-${field}`;
  const fromConsole = vendor.fields.filter((f) => f.source === 'console' || f.unreadable);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const entered = Object.fromEntries(Object.entries(values).filter(([, value]) => value.trim() !== ''));
    const names = Object.keys(entered);
    setEmpty(names.length === 0);
    if (names.length === 0) return;
    const saved = await act(
      () => setVendorKeys(vendor.name, entered, custom),
      t('captcha.didSaveKeys', { vendor: vendor.name, fields: names.join(', ') }),
    );
    // Typed secrets do not linger in the page once the server has them.
    if (saved) setValues({});
  };
  // What a Clear button asked to clear (one field, or every console value), until answered.
  const [clearing, setClearing] = useState<{ fields?: string[] } | null>(null);
  const clear = (fields?: string[]) =>
    act(() => clearVendorKeys(vendor.name, fields), t('captcha.didClearKeys', { vendor: vendor.name }));
  const field = clearing?.fields?.[0];

  return (
    <details className="console-vendor">
      <summary>
        <strong>{vendor.name}</strong>{' '}
        <span className="console-muted">
          {vendor.configured ? t('captcha.configuredYes') : t('captcha.missing', { fields: vendor.missing.join(', ') })}
        </span>
      </summary>
      <form className="console-form" onSubmit={submit} aria-label={t('captcha.saveKeys', { vendor: vendor.name })}>
        {vendor.fields.map((field) => (
          <div key={field.name} className="console-vendor-field">
            <label htmlFor={id(field.name)}>
              {field.name} <code>{field.env}</code>
            </label>
            <input
              id={id(field.name)}
              type={field.secret ? 'password' : field.url ? 'url' : 'text'}
              autoComplete={field.secret ? 'new-password' : 'off'}
              spellCheck={false}
              maxLength={field.url ? 1024 : 512}
              value={values[field.name] ?? ''}
              aria-describedby={`${id(field.name)}-state`}
              onChange={(e) => setValues((v) => ({ ...v, [field.name]: e.target.value }))}
            />
            <span id={`${id(field.name)}-state`} className="console-muted">
              <FieldState field={field} />
            </span>
            {field.source === 'console' || field.unreadable ? (
              <button
                type="button"
                className="console-button console-button-quiet"
                disabled={busy}
                aria-label={t('captcha.clearFieldLabel', { vendor: vendor.name, field: field.name })}
                onClick={() => setClearing({ fields: [field.name] })}
              >
                {t('captcha.clearField')}
              </button>
            ) : null}
          </div>
        ))}
        <label className="console-vendor-custom">
          <input type="checkbox" checked={custom} onChange={(e) => setCustom(e.target.checked)} />{' '}
          {t('captcha.customEndpoint')}
        </label>
        {empty ? (
          <p className="console-alert" role="alert">
            {t('captcha.nothingToSave')}
          </p>
        ) : null}
        <div className="console-filters">
          <button type="submit" className="console-button" disabled={busy}>
            {t('captcha.saveKeys', { vendor: vendor.name })}
          </button>
          {fromConsole.length > 0 ? (
            <button
              type="button"
              className="console-button console-button-quiet"
              disabled={busy}
              aria-label={t('captcha.clearKeysLabel', { vendor: vendor.name })}
              onClick={() => setClearing({})}
            >
              {t('captcha.clearKeys')}
            </button>
          ) : null}
        </div>
      </form>
      {clearing ? (
        <ConsoleConfirm
          title={
            field === undefined
              ? t('captcha.confirmClearKeys', { vendor: vendor.name })
              : t('captcha.confirmClearField', { vendor: vendor.name, field })
          }
          body={t('captcha.confirmClearBody', { vendor: vendor.name })}
          confirmLabel={field === undefined ? t('captcha.clearKeys') : t('captcha.clearField')}
          onCancel={() => setClearing(null)}
          onConfirm={() => {
            setClearing(null);
            void clear(clearing.fields);
          }}
        />
      ) : null}
    </details>
  );
};

export const VendorKeys = ({ vendors, busy, act }: { vendors: CaptchaVendorState[]; busy: boolean; act: Act }) => {
  const { t } = useConsoleText();
  return (
    <Card id="captcha-vendors" title={t('captcha.vendors')}>
      <p className="console-muted">{t('captcha.vendorsExplain')}</p>
      {vendors.map((vendor) => (
        <VendorForm key={vendor.name} vendor={vendor} busy={busy} act={act} />
      ))}
    </Card>
  );
};
