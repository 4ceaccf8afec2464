/**
 * The code of a form that asks for one and then submits it: sent through the human check (by SMS, or
 * by voice call for the purposes that have one), a refusal told beside the code button with the seconds
 * the server says to wait, and where the last code went.
 */
import { type CaptchaProof, sendVoiceCode } from '@edupass/account';
import { useState } from 'react';
import { withCaptcha } from '../captcha/human-check.ts';
import { useI18n } from '../i18n/i18n.ts';
import { client } from '../session/account.ts';
import type { CodeSender, SendOutcome } from './code-button.tsx';
import { codeWaitKey, retryAfterOf } from './code-wait.ts';
import type { StepUp } from './step-up.tsx';
import type { Action } from './use-action.ts';

/** The purposes the server sends by voice call too (its voice `type`s). */
const VOICE_SCENES = new Set(['register', 'silence', 'reset', 'common', 'login']);

/** `stepUp`: a send the server refuses for want of a recent proof opens the proof panel; then send again. */
export const useSendCode = (action: Action, stepUp?: StepUp) => {
  const { errorText } = useI18n();
  const [code, setCode] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);

  const attempt =
    (scene: string, to: string, request: (proof?: CaptchaProof) => Promise<unknown>) =>
    async (): Promise<SendOutcome> => {
      action.setError(null);
      try {
        await withCaptcha(scene, to, request);
        setSentTo(to);
        return { sent: true };
      } catch (error) {
        stepUp?.caught(error, async () => undefined);
        return { sent: false, error: errorText(error), retryAfter: retryAfterOf(error) };
      }
    };

  /** The code button's `onSend`: asks for a code to `to` in the captcha `scene` with `request`. */
  const sender = (scene: string, to: string, request: (proof?: CaptchaProof) => Promise<unknown>): CodeSender =>
    Object.assign(attempt(scene, to, request), {
      waitKey: codeWaitKey(scene, to),
      voice: VOICE_SCENES.has(scene)
        ? attempt(scene, to, (proof) => sendVoiceCode(client, { phone_number: to, type: scene }, proof))
        : undefined,
    });
  return { code, setCode, sentTo, sender };
};

/**
 * A phone number and the code sent to it for the captcha `scene` by `send`: the state a form checks, and
 * `fields`, the props of PhoneCodeFields.
 */
export const usePhoneCode = (
  action: Action,
  scene: string,
  send: (input: { phone_number: string }, proof?: CaptchaProof) => Promise<unknown>,
) => {
  const [phone, setPhone] = useState('');
  const { code, setCode, sentTo, sender } = useSendCode(action);
  const onSend = sender(scene, phone, (proof) => send({ phone_number: phone }, proof));
  return { phone, code, fields: { phone, onPhone: setPhone, code, onCode: setCode, sentTo, onSend } };
};
