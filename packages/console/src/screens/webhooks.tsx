/**
 * Webhook endpoints: add one (its secret shown once), turn it on or off, remove it (turning off and
 * removing ask first, naming the URL), and read its delivery log with a resend button. An endpoint the
 * server turned off says why.
 */
import { WEBHOOK_EVENT_TYPES, type WebhookDelivery, type WebhookEndpoint } from '@edupass/protocol';
import { FormError, Notice } from '@edupass/ui-kit/status.tsx';
import { useAction } from '@edupass/ui-kit/use-action.ts';
import { useLoad } from '@edupass/ui-kit/use-load.ts';
import { type FormEvent, useState } from 'react';
import {
  addWebhook,
  listDeliveries,
  listWebhooks,
  removeWebhook,
  resendDelivery,
  setWebhookEnabled,
} from '../api/webhooks-api.ts';
import { useConsoleText } from '../i18n/i18n.ts';
import { ConsoleConfirm } from '../ui/confirm.tsx';
import { Failure, Loaded, Loading } from '../ui/status.tsx';
import { Card, DataTable } from '../ui/table.tsx';
import { webhookText } from './webhooks-text.ts';

const useText = () => {
  const console = useConsoleText();
  return { ...console, w: webhookText(console.locale) };
};

/** Runs a change; `done` becomes the notice when it succeeds. */
type Act = (work: () => Promise<unknown>, done: string) => Promise<boolean>;

const AddForm = ({ busy, act, added }: { busy: boolean; act: Act; added: () => void }) => {
  const { w } = useText();
  const [product, setProduct] = useState('*');
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<string[]>([...WEBHOOK_EVENT_TYPES]);
  const [secret, setSecret] = useState('');
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const done = await act(async () => setSecret((await addWebhook(product, url, events)).secret), w.didAdd);
    if (done) added();
  };
  const toggle = (name: string) =>
    setEvents((now) => (now.includes(name) ? now.filter((e) => e !== name) : [...now, name]));
  return (
    <Card id="webhook-add" title={w.add}>
      <form className="console-form" onSubmit={submit}>
        <label htmlFor="webhook-product">{w.product}</label>
        <input id="webhook-product" value={product} onChange={(e) => setProduct(e.target.value)} required />
        <label htmlFor="webhook-url">{w.url}</label>
        <input
          id="webhook-url"
          type="url"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          placeholder="https://"
          required
        />
        <fieldset>
          <legend>{w.events}</legend>
          {WEBHOOK_EVENT_TYPES.map((name) => (
            <label key={name} className="console-check">
              <input type="checkbox" checked={events.includes(name)} onChange={() => toggle(name)} /> {name}
            </label>
          ))}
        </fieldset>
        <button type="submit" className="console-button" disabled={busy}>
          {w.save}
        </button>
      </form>
      {secret ? (
        <p role="status">
          {w.secretOnce} <code data-testid="webhook-secret">{secret}</code>
        </p>
      ) : null}
    </Card>
  );
};

const DeliveryLog = ({ endpoint, busy, act }: { endpoint: WebhookEndpoint; busy: boolean; act: Act }) => {
  const { w, time } = useText();
  const deliveries = useLoad(() => listDeliveries(endpoint.id), [endpoint.id]);
  const resend = async (delivery: WebhookDelivery) => {
    if (await act(() => resendDelivery(delivery.id), w.didResend)) deliveries.reload();
  };
  if (deliveries.status === 'failed') return <Failure error={deliveries.error} retry={deliveries.reload} />;
  if (!deliveries.data) return <Loading />;
  return (
    <DataTable
      caption={`${w.log} ${endpoint.url}`}
      rows={deliveries.data}
      rowKey={(d) => d.id}
      empty={w.noDeliveries}
      wrap
      columns={[
        { head: w.event, cell: (d) => `${d.type} · ${d.event_id}`, rowHeader: true },
        { head: w.status, cell: (d) => w[d.status] },
        { head: w.attempts, cell: (d) => d.attempts },
        {
          head: w.lastAttempt,
          cell: (d) =>
            d.last_attempt === null
              ? '—'
              : `${time(d.last_attempt.at)} · ${d.last_attempt.response_status || d.last_attempt.error} · ${d.last_attempt.duration_ms} ms`,
        },
        { head: w.next, cell: (d) => (d.status === 'pending' ? time(d.next_attempt_at) : '—') },
        {
          head: <span className="console-visually-hidden">{w.resend}</span>,
          cell: (d) => (
            <button
              type="button"
              className="console-button console-button-quiet"
              disabled={busy}
              onClick={() => void resend(d)}
            >
              {w.resend}
            </button>
          ),
        },
      ]}
    />
  );
};

const EndpointCard = ({
  endpoint,
  busy,
  act,
  changed,
}: {
  endpoint: WebhookEndpoint;
  busy: boolean;
  act: Act;
  changed: () => void;
}) => {
  const { w } = useText();
  const [asking, setAsking] = useState<'disable' | 'remove' | undefined>(undefined);
  const change = async (action: () => Promise<unknown>) => {
    if (await act(action, w.didChange)) changed();
  };
  const confirmed = (what: 'disable' | 'remove') => {
    setAsking(undefined);
    void change(() => (what === 'remove' ? removeWebhook(endpoint.id) : setWebhookEnabled(endpoint.id, false)));
  };
  const named = (text: string) => text.replace('{url}', endpoint.url);
  return (
    <Card id={`webhook-${endpoint.id}`} title={`${endpoint.product} · ${endpoint.url}`}>
      <p>
        {w.state}: {endpoint.enabled ? w.on : w.off} · {endpoint.events.join(', ')}
      </p>
      {!endpoint.enabled && endpoint.disabled_reason ? (
        <p role="alert" className="console-alert">
          {w.turnedOff.replace('{reason}', endpoint.disabled_reason)}
        </p>
      ) : null}
      <div className="console-filters">
        <button
          type="button"
          className="console-button"
          disabled={busy}
          onClick={() =>
            endpoint.enabled ? setAsking('disable') : void change(() => setWebhookEnabled(endpoint.id, true))
          }
        >
          {endpoint.enabled ? w.disable : w.enable}
        </button>
        <button
          type="button"
          className="console-button console-button-quiet"
          disabled={busy}
          onClick={() => setAsking('remove')}
        >
          {w.remove}
        </button>
      </div>
      {asking ? (
        <ConsoleConfirm
          title={named(asking === 'remove' ? w.confirmRemove : w.confirmDisable)}
          body={asking === 'remove' ? w.confirmRemoveBody : w.confirmDisableBody}
          confirmLabel={asking === 'remove' ? w.remove : w.disable}
          onCancel={() => setAsking(undefined)}
          onConfirm={() => confirmed(asking)}
        />
      ) : null}
      <DeliveryLog endpoint={endpoint} busy={busy} act={act} />
    </Card>
  );
};

export const WebhooksScreen = () => {
  const { w, errorText } = useText();
  const endpoints = useLoad(listWebhooks);
  const { busy, error, notice, run } = useAction(errorText);
  const act: Act = (work, done) =>
    run(async () => {
      await work();
      return done;
    });
  return (
    <>
      <h1>{w.title}</h1>
      <p className="console-lead">{w.lead}</p>
      <Notice message={notice} />
      <FormError message={error} />
      <AddForm busy={busy} act={act} added={endpoints.reload} />
      <Loaded state={endpoints}>
        {(list) =>
          list.length === 0 ? (
            <p className="console-muted">{w.none}</p>
          ) : (
            list.map((endpoint) => (
              <EndpointCard key={endpoint.id} endpoint={endpoint} busy={busy} act={act} changed={endpoints.reload} />
            ))
          )
        }
      </Loaded>
    </>
  );
};
