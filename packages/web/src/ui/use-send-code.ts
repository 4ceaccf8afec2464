/**
 * The code of a form that asks for one and then submits it: sent through the human check, a failure
 * shown as the form's error (no countdown starts), and where the last code went.
 */
import type { CaptchaProof } from '@edupass/account';
import { useState } from 'react';
import { withCaptcha } from '../captcha/human-check.ts';
import type { StepUp } from './step-up.tsx';
import type { Action } from './use-action.ts';

/** `stepUp`: a send the server refuses for want of a recent proof opens the proof panel; then send again. */
export const useSendCode = (action: Action, stepUp?: StepUp) => {
  const [code, setCode] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  /** The code button's `onSend`: asks for a code to `to` in the captcha `scene` with `request`. */
  const sender =
    (scene: string, to: string, request: (proof?: CaptchaProof) => Promise<unknown>) => async (): Promise<boolean> => {
      action.setError(null);
      try {
        await withCaptcha(scene, to, request);
        setSentTo(to);
        return true;
      } catch (error) {
        action.fail(error);
        stepUp?.caught(error, async () => undefined);
        return false;
      }
    };
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
