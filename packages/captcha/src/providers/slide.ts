/** EduPass's own slide puzzle (rule SLIDE): challenge from our server, answered in our box, checked there. */
import { CAPTCHA_MESSAGES } from '@edupass/protocol';
import { CaptchaError, fatal } from '../errors.ts';
import { createSlideWidget } from '../slide/widget.ts';
import type { Provider } from './provider.ts';

/** Puzzles offered before the flow fails; each wrong answer counts against the caller on the server. */
export const SLIDE_ATTEMPTS = 3;

export const slide: Provider = {
  box: true,
  async run(context) {
    const container = context.overlay.container;
    if (!container) throw fatal();
    const widget = createSlideWidget(context.page.document, container, context.timers);
    context.onCleanup(() => widget.destroy());
    for (let attempt = 1; ; attempt++) {
      const challenge = await context.api.slideChallenge(context.request);
      const answer = await widget.ask(challenge);
      try {
        return await context.api.slideVerify(answer);
      } catch (error) {
        const retry = error instanceof CaptchaError && error.name === 'CAPTCHA_REJECTED' && attempt < SLIDE_ATTEMPTS;
        if (!retry) throw error;
        widget.announce(CAPTCHA_MESSAGES.rejected);
      }
    }
  },
};
