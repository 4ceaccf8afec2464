import {
  checkCommonCodeRoute,
  type LoginResult,
  sendCommonCodeRoute,
  sendVoiceCodeRoute,
  type TicketResult,
} from '@edupass/protocol';
import { anonymous, type Call, type CaptchaCall, type CaptchaProof, defineCall, type Shape } from '../call.ts';
import type { AccountClient } from '../client.ts';
import { nothing, oauthSignIn, object } from '../shapes.ts';
import { byRules } from '../validate.ts';
import type { PhoneCodeInput, PhoneInput } from './sign-up.ts';

/** Sends a general-purpose code. */
export const sendCommonCode: CaptchaCall<PhoneInput, void> = /* @__PURE__ */ defineCall(
  anonymous,
  sendCommonCodeRoute,
  nothing,
  byRules,
);

/** Checks a general-purpose code; returns a ticket. */
export const checkCommonCode: Call<PhoneCodeInput, TicketResult> = /* @__PURE__ */ defineCall(
  anonymous,
  checkCommonCodeRoute,
  object,
  byRules,
);

export interface VoiceCodeInput extends PhoneInput {
  /** What the code is for (`login`, `register`, …); sent uppercased. */
  type: string;
  oauth_ticket?: string;
}

/** Usually 204; an answer of 200 carries a sign-in, whose tokens are kept (spec §4). */
const voiceAnswer: Shape<LoginResult | undefined> = (client, reply) =>
  reply.status === 200 ? (oauthSignIn(client, reply) as LoginResult) : undefined;

const voice = /* @__PURE__ */ defineCall<VoiceCodeInput, LoginResult | undefined>(
  anonymous,
  sendVoiceCodeRoute,
  voiceAnswer,
  byRules,
);

/**
 * Sends a code by voice call; returns the sign-in when the server answers with one. (`?.`: a JavaScript
 * caller may leave `type` out, and the server's answer, not a TypeError, should say so.)
 */
export const sendVoiceCode = (
  client: AccountClient,
  input: VoiceCodeInput,
  captcha?: CaptchaProof,
): Promise<LoginResult | undefined> => voice(client, { ...input, type: input.type?.toUpperCase() }, captcha);
