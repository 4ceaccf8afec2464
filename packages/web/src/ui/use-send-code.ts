/**
 * The code of a form that asks for one and then submits it: sent through the human check (by SMS, or
 * by voice call for the purposes that have one), a refusal told beside the code button with the seconds
 * the server says to wait, and where the last code went.
 */
import { type CaptchaProof, sendVoiceCode } from '@edupass/account';
import { troubleOf } from '@edupass/ui-kit/network-trouble.ts';
import type { Action } from '@edupass/ui-kit/use-action.ts';
import { useState } from 'react';
import { withCaptcha } from '../captcha/human-check.ts';
import { useI18n } from '../i18n/i18n.ts';
import { client } from '../session/account.ts';
import { type CodeSender, RESEND_SECONDS, type SendOutcome } from './code-button.tsx';
import { codeWaitKey, retryAfterOf, waitFor } from './code-wait.ts';
import type { StepUp } from './step-up.tsx';

/** The purposes the server sends by voice call too (its voice `type`s). */
const VOICE_SCENES = new Set(['register', 'silence', 'reset', 'common', 'login']);

/**
 * `stepUp`: a send the server refuses for want of a recent proof opens the proof panel (the button says
 * nothing more: the panel says why), and once the proof is given the code is sent without another tap.
 */
export const useSendCode = (action: Action, stepUp?: StepUp) => {
  const { errorText } = useI18n();
  const [code, setCode] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);

  const attempt =
    (scene: string, to: string, request: (proof?: CaptchaProof) => Promise<unknown>) =>
    async (): Promise<SendOutcome> => {
      action.setError(null);
      const send = async () => {
        await withCaptcha(scene, to, request);
        setSentTo(to);
      };
      try {
        await send();
        return { sent: true };
      } catch (error) {
        const resend = async () => {
          await send();
          waitFor(codeWaitKey(scene, to), RESEND_SECONDS);
        };
        if (stepUp?.caught(error, resend)) return { sent: false, error: null };
        // A refusal about an input of the form (an unknown or wrong number) is shown at that input.
        const atInput = action.claim(error);
        return {
          sent: false,
          error: atInput ? null : errorText(error),
          retryAfter: retryAfterOf(error),
          trouble: !!troubleOf(error),
        };
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

/** An address (phone or e-mail) and the code sent to it for the captcha `scene` by `send`. */
const useCodeTo = (
  action: Action,
  scene: string,
  send: (to: string, proof?: CaptchaProof) => Promise<unknown>,
  initialAddress = '',
) => {
  const [address, setAddress] = useState(initialAddress);
  const { code, setCode, sentTo, sender } = useSendCode(action);
  const onSend = sender(scene, address, (proof) => send(address, proof));
  const bindCode = action.field('captcha');
  return { address, setAddress, code, onCode: setCode, sentTo, onSend, bindCode };
};

/**
 * A phone number and the code sent to it for the captcha `scene` by `send`: the state a form checks, and
 * `fields`, the props of PhoneCodeFields.
 */
export const usePhoneCode = (
  action: Action,
  scene: string,
  send: (input: { phone_number: string }, proof?: CaptchaProof) => Promise<unknown>,
  initialPhone = '',
) => {
  const {
    address: phone,
    setAddress: onPhone,
    ...rest
  } = useCodeTo(action, scene, (to, proof) => send({ phone_number: to }, proof), initialPhone);
  const bindPhone = action.field('phone_number');
  return { phone, code: rest.code, fields: { phone, onPhone, bindPhone, ...rest } };
};

/** The same for an e-mail address: the props of EmailCodeFields. */
export const useEmailCode = (
  action: Action,
  scene: string,
  send: (input: { email: string }, proof?: CaptchaProof) => Promise<unknown>,
) => {
  const {
    address: email,
    setAddress: onEmail,
    ...rest
  } = useCodeTo(action, scene, (to, proof) => send({ email: to }, proof));
  const bindEmail = action.field('email');
  return { email, code: rest.code, fields: { email, onEmail, bindEmail, ...rest } };
};
