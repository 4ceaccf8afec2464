/**
 * Captcha policy per product and scene (never, always, by risk; removing one asks first), the provider
 * per product, and vendor keys.
 */

import {
  CAPTCHA_POLICIES,
  CAPTCHA_SCENES,
  type CaptchaPolicyName,
  type CaptchaRiskThresholds,
} from '@edupass/protocol';
import { FormError, Notice } from '@edupass/ui-kit/status.tsx';
import { useAction } from '@edupass/ui-kit/use-action.ts';
import { useLoad } from '@edupass/ui-kit/use-load.ts';
import { type FormEvent, useState } from 'react';
import { clearCaptchaPolicy, getCaptchaSettings, setCaptchaPolicy } from '../api/admin-api.ts';
import { useConsoleText } from '../i18n/i18n.ts';
import { ConsoleConfirm } from '../ui/confirm.tsx';
import { Failure, Loading } from '../ui/status.tsx';
import { SuggestInput } from '../ui/suggest-input.tsx';
import { Card, DataTable } from '../ui/table.tsx';
import { DEFAULT_PRODUCT } from '../ui/window-picker.tsx';
import { type Act, ProviderChoices } from './captcha-providers.tsx';
import { VendorKeys } from './captcha-vendor-keys.tsx';

/** Scenes the SDK asks rules for, and * for any; any other may be typed. */
const KNOWN_SCENES = ['*', ...CAPTCHA_SCENES];

const RISK_SIGNALS = [
  'identityFailures',
  'loginAttempts',
  'ipFailures',
  'ipLoginFailures',
  'ipSends',
  'ruleRequests',
] as const satisfies (keyof CaptchaRiskThresholds)[];

/** The thresholds in effect, read-only: they come from configuration. */
const RiskThresholds = ({ risk }: { risk: CaptchaRiskThresholds }) => {
  const { t } = useConsoleText();
  const rows = [
    ...RISK_SIGNALS.map((signal) => ({ key: signal, label: t(`captcha.risk.${signal}`), value: String(risk[signal]) })),
    {
      key: 'fallbackRule',
      label: t('captcha.risk.fallbackRule'),
      value: risk.fallbackRule === 'NONE' ? t('captcha.risk.fallbackNone') : risk.fallbackRule,
    },
  ];
  return (
    <Card id="captcha-risk" title={t('captcha.riskTitle')}>
      <p className="console-muted">{t('captcha.riskExplain', { window: Math.round(risk.windowSeconds / 60) })}</p>
      <DataTable
        rows={rows}
        rowKey={(row) => row.key}
        columns={[
          { head: t('captcha.riskSignal'), cell: (row) => row.label, rowHeader: true },
          { head: t('captcha.riskThreshold'), cell: (row) => row.value },
        ]}
      />
    </Card>
  );
};

export const CaptchaScreen = () => {
  const { t, errorText } = useConsoleText();
  const settings = useLoad(getCaptchaSettings);
  const [pid, setPid] = useState(DEFAULT_PRODUCT);
  const [scene, setScene] = useState('login');
  const [policy, setPolicy] = useState<CaptchaPolicyName>('always');
  const [removing, setRemoving] = useState<{ pid: string; scene: string } | undefined>(undefined);
  const { busy, error, notice, run } = useAction(errorText);
  const policyName = (p: CaptchaPolicyName) => t(`captcha.${p}`);

  const act: Act = async (action, done) => {
    const saved = await run(async () => {
      await action();
      return done;
    });
    if (saved) settings.reload();
    return saved;
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const p = pid.trim();
    const s = scene.trim().toLowerCase();
    void act(
      () => setCaptchaPolicy(p, s, policy),
      t('captcha.didSave', { pid: p, scene: s, policy: policyName(policy) }),
    );
  };

  const data = settings.data;
  return (
    <>
      <h1>{t('captcha.title')}</h1>
      <p className="console-lead">{t('captcha.explain')}</p>
      <Notice message={notice} />
      <FormError message={error} />
      {settings.status === 'failed' ? <Failure error={settings.error} retry={settings.reload} /> : null}
      <Card id="captcha-set" title={t('captcha.save')}>
        <form className="console-filters" onSubmit={submit}>
          <label htmlFor="captcha-pid">{t('captcha.product')}</label>
          <input id="captcha-pid" required maxLength={64} value={pid} onChange={(e) => setPid(e.target.value)} />
          <label htmlFor="captcha-scene">{t('captcha.scene')}</label>
          <SuggestInput
            id="captcha-scene"
            required
            maxLength={64}
            value={scene}
            onValue={setScene}
            suggestions={KNOWN_SCENES}
          />
          <fieldset className="console-radios">
            <legend>{t('captcha.policy')}</legend>
            {CAPTCHA_POLICIES.map((p) => (
              <label key={p}>
                <input
                  type="radio"
                  name="captcha-policy"
                  value={p}
                  checked={policy === p}
                  onChange={() => setPolicy(p)}
                />
                {policyName(p)}
              </label>
            ))}
          </fieldset>
          <button type="submit" className="console-button" disabled={busy}>
            {t('captcha.save')}
          </button>
        </form>
      </Card>
      {!data ? (
        settings.status === 'loading' ? (
          <Loading />
        ) : null
      ) : (
        <>
          <Card id="captcha-policies" title={t('captcha.policies')}>
            <DataTable
              empty={t('captcha.none')}
              rows={data.policies}
              rowKey={(row) => `${row.pid}:${row.scene}`}
              columns={[
                { head: t('captcha.product'), cell: (row) => row.pid },
                { head: t('captcha.scene'), cell: (row) => row.scene },
                { head: t('captcha.policy'), cell: (row) => policyName(row.policy) },
                {
                  head: <span className="console-visually-hidden">{t('captcha.remove')}</span>,
                  cell: (row) => (
                    <button
                      type="button"
                      className="console-button console-button-quiet"
                      disabled={busy}
                      aria-label={t('captcha.removeLabel', { pid: row.pid, scene: row.scene })}
                      onClick={() => setRemoving({ pid: row.pid, scene: row.scene })}
                    >
                      {t('captcha.remove')}
                    </button>
                  ),
                },
              ]}
            />
            <h3>{t('captcha.configured')}</h3>
            <ul className="console-plain-list">
              {Object.entries(data.configured).map(([key, p]) => (
                <li key={key}>
                  <code>{key}</code> → {policyName(p)}
                </li>
              ))}
            </ul>
          </Card>
          {removing ? (
            <ConsoleConfirm
              title={t('captcha.confirmRemove', removing)}
              body={t('captcha.confirmRemoveBody')}
              confirmLabel={t('captcha.remove')}
              onCancel={() => setRemoving(undefined)}
              onConfirm={() => {
                setRemoving(undefined);
                void act(() => clearCaptchaPolicy(removing.pid, removing.scene), t('captcha.didRemove', removing));
              }}
            />
          ) : null}
          {data.risk ? <RiskThresholds risk={data.risk} /> : null}
          <ProviderChoices providers={data.providers} vendors={data.vendors} busy={busy} act={act} />
          <VendorKeys vendors={data.vendors} busy={busy} act={act} />
        </>
      )}
    </>
  );
};
