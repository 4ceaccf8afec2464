/**
 * A call of the route table as a function: fill the route's fields from the input and the client, run
 * the checks, send, shape the answer. Every SDK method is one `defineCall`, so the route table stays the
 * one list of paths and fields.
 */
import {
  CAPTCHA_ID_HEADER,
  CAPTCHA_TICKET_HEADER,
  DEFAULT_AGREEMENT_IDS,
  type RuleFailure,
  type WireRoute,
} from '@edupass/protocol';
import type { AccountClient } from './client.ts';
import { assertValid } from './errors.ts';
import { type Reply, type Request, send } from './transport.ts';

/** A passed human verification, sent as `X-Captcha-Ticket` / `X-Captcha-Id` where the route takes them. */
export interface CaptchaProof {
  ticket: string;
  /** The vendor appid, where the captcha rule gave one. */
  appid?: string;
}

export type Values = Record<string, unknown>;
/** A validation run before any request, on the input merged with the filled fields. */
export type Check = (values: Values, route: WireRoute) => RuleFailure | null;
/** Turns the answer into the method's result (and applies its effects: tokens, session). */
export type Shape<R> = (client: AccountClient, reply: Reply) => R;
/** How a call is sent: anonymously, or with the token state machine. */
export type CallRequest = Omit<Request, 'body'> & { body?: () => Values | undefined };
export type Sender = (client: AccountClient, request: CallRequest) => Promise<Reply>;

/** Sends without any token: the `auth: 'none'` routes. */
export const anonymous: Sender = (client, request) => send(client, { ...request, body: request.body?.() });

/** A method taking the client and its input. */
export type Call<I, R> = (client: AccountClient, input: I) => Promise<R>;
/** A method whose route accepts a passed captcha. */
export type CaptchaCall<I, R> = (client: AccountClient, input: I, captcha?: CaptchaProof) => Promise<R>;
/** A method with no input. */
export type PlainCall<R> = (client: AccountClient) => Promise<R>;

/**
 * The route's fields from the input, with what the client knows filled in: `pid`, `appid`, the held
 * `refresh_token`, and `agreement_ids` defaulting to [-1] ("no agreement chosen").
 */
const fill = (client: AccountClient, route: WireRoute, input: Values): Values | undefined => {
  const fields = route.body ?? route.query;
  if (!fields) return undefined;
  const { config } = client;
  const known: Values = {
    pid: config.pid,
    appid: String(config.appid),
    refresh_token: client.tokens.get().refresh,
    agreement_ids: DEFAULT_AGREEMENT_IDS,
  };
  const values: Values = {};
  for (const key in fields) {
    const value = input[key] ?? known[key];
    if (value !== undefined) values[key] = value;
  }
  return values;
};

/* @__NO_SIDE_EFFECTS__ */
export const defineCall =
  <I, R>(sender: Sender, route: WireRoute, shape: Shape<R>, ...checks: Check[]) =>
  async (client: AccountClient, input?: I, captcha?: CaptchaProof): Promise<R> => {
    const given = (input ?? {}) as Values;
    const values = { ...given, ...fill(client, route, given) };
    assertValid(...checks.map((check) => check(values, route)));
    // Filled again at send time: getting a token first may have rotated the refresh token.
    const fields = () => fill(client, route, given);
    const reply = await sender(client, {
      route,
      ...(route.method === 'GET' ? { query: fields() } : { body: fields }),
      headers: { [CAPTCHA_TICKET_HEADER]: captcha?.ticket, [CAPTCHA_ID_HEADER]: captcha?.appid },
    });
    return shape(client, reply);
  };
