/** EduPass's own slide puzzle (rule SLIDE): challenge from our server, answered in our box, checked there. */
import type { SlideChallenge } from '@edupass/protocol';
import { CaptchaError, fatal, isOutage } from '../errors.ts';
import { createSlideWidget } from '../slide/widget.ts';
import type { Provider } from './provider.ts';

/** Puzzles offered before the flow fails; each wrong answer counts against the caller on the server. */
export const SLIDE_ATTEMPTS = 3;

export const slide: Provider = {
  box: true,
  async run(context) {
    const container = context.overlay.container;
    if (!container) throw fatal();
    const { text } = context.overlay;
    const widget = createSlideWidget(context.page.document, container, context.timers, text);
    context.onCleanup(() => widget.destroy());
    // An outage or an expired puzzle waits for the user's "new puzzle" rather than failing the flow:
    // neither is the user's mistake, and neither counts as an attempt.
    for (let attempt = 1; ; ) {
      let challenge: SlideChallenge;
      try {
        challenge = await context.api.slideChallenge(context.request);
      } catch (error) {
        if (!isOutage(error)) throw error;
        await widget.offerRetry(text.network);
        continue;
      }
      const answer = await widget.ask(challenge);
      if (answer === 'expired') {
        await widget.offerRetry(text.expired);
        continue;
      }
      try {
        return await context.api.slideVerify(answer);
      } catch (error) {
        if (isOutage(error)) {
          await widget.offerRetry(text.network);
          continue;
        }
        const retry = error instanceof CaptchaError && error.name === 'CAPTCHA_REJECTED' && attempt < SLIDE_ATTEMPTS;
        if (!retry) throw error;
        attempt++;
        widget.announce(text.rejected);
      }
    }
  },
};
