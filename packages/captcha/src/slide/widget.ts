/**
 * EduPass's slide puzzle in the page: background with the gap, the piece, and a slider that moves it.
 * Mouse and touch through pointer events; keyboard through the WAI-ARIA slider pattern; the slider
 * announces its position (role=slider, aria-valuenow…) and results go to a live region.
 */
import type { SlideAnswer, SlideChallenge } from '@edupass/protocol';
import type { Timers } from '../globals.ts';
import type { CaptchaText } from '../locale.ts';
import { isSubmitKey, positionForKey } from './keyboard.ts';
import { createTrajectory } from './trajectory.ts';

export interface SlideWidget {
  /**
   * Shows a challenge and resolves with the answer when the user lets go (or presses Enter), or with
   * 'expired' when the challenge's time runs out first (an answer then would only count as a failure).
   */
  ask(challenge: SlideChallenge): Promise<SlideAnswer | 'expired'>;
  /** Says something to screen readers (and shows it). */
  announce(message: string): void;
  /** Says `message` and shows the retry button; resolves when it is pressed. */
  offerRetry(message: string): Promise<void>;
  destroy(): void;
}

const HANDLE = 40;

const css = (element: HTMLElement, rules: Record<string, string>) => {
  for (const [name, value] of Object.entries(rules)) element.style.setProperty(name, value);
};

export const createSlideWidget = (
  document: Document,
  container: HTMLElement,
  timers: Timers,
  text: CaptchaText,
): SlideWidget => {
  const root = document.createElement('div');
  root.setAttribute('data-edupass-captcha', 'slide');
  const width = container.clientWidth || 300;
  const stage = document.createElement('div');
  css(stage, { position: 'relative', width: `${width}px`, overflow: 'hidden', background: '#eee' });
  const background = document.createElement('img');
  background.alt = '';
  css(background, { display: 'block', width: '100%', 'user-select': 'none' });
  background.draggable = false;
  const piece = document.createElement('img');
  piece.alt = '';
  piece.draggable = false;
  piece.setAttribute('data-edupass-captcha', 'piece');
  // A shadow around the piece's own outline lifts it off any scenery.
  css(piece, {
    position: 'absolute',
    left: '0',
    top: '0',
    'pointer-events': 'none',
    filter: 'drop-shadow(0 0 2px rgba(0, 0, 0, 0.9))',
  });
  stage.append(background, piece);

  const track = document.createElement('div');
  css(track, {
    position: 'relative',
    height: `${HANDLE}px`,
    'margin-top': '8px',
    background: '#e8eef5',
    'border-radius': `${HANDLE / 2}px`,
  });
  // What to do, written in the track; the handle slides over it, and screen readers hear it as the
  // slider's description.
  const hint = document.createElement('span');
  hint.id = `${container.id || 'edupass-captcha'}-hint`;
  hint.textContent = text.hint;
  hint.setAttribute('data-edupass-captcha', 'hint');
  css(hint, {
    position: 'absolute',
    inset: '0',
    display: 'flex',
    'align-items': 'center',
    'justify-content': 'center',
    'padding-left': `${HANDLE}px`,
    color: '#33415c',
    'font-size': '14px',
    'user-select': 'none',
    'pointer-events': 'none',
  });
  const handle = document.createElement('div');
  handle.setAttribute('aria-describedby', hint.id);
  handle.setAttribute('role', 'slider');
  handle.setAttribute('tabindex', '0');
  handle.setAttribute('aria-label', text.prompt);
  handle.setAttribute('aria-valuemin', '0');
  handle.setAttribute('aria-valuenow', '0');
  // Until a puzzle is shown there is nothing to answer.
  handle.setAttribute('aria-disabled', 'true');
  handle.setAttribute('data-edupass-captcha', 'handle');
  css(handle, {
    position: 'absolute',
    left: '0',
    top: '0',
    width: `${HANDLE}px`,
    height: `${HANDLE}px`,
    'border-radius': '50%',
    background: '#1677ff',
    cursor: 'grab',
    'touch-action': 'none',
  });
  track.append(hint, handle);

  const status = document.createElement('p');
  status.setAttribute('aria-live', 'polite');
  status.setAttribute('data-edupass-captcha', 'status');
  css(status, { margin: '6px 0 0', 'min-height': '1.4em', color: '#c00' });
  const retry = document.createElement('button');
  retry.type = 'button';
  retry.hidden = true;
  retry.textContent = text.retry;
  retry.setAttribute('data-edupass-captcha', 'retry');
  css(retry, { 'margin-top': '6px', padding: '4px 12px', font: 'inherit', cursor: 'pointer' });
  root.append(stage, track, status, retry);
  container.append(root);

  let cleanup: (() => void) | undefined;

  return {
    announce(message) {
      status.textContent = message;
    },
    offerRetry(message) {
      status.textContent = message;
      retry.hidden = false;
      retry.focus();
      return new Promise<void>((resolve) => {
        const pressed = () => {
          retry.removeEventListener('click', pressed);
          retry.hidden = true;
          status.textContent = '';
          resolve();
        };
        retry.addEventListener('click', pressed);
      });
    },
    destroy() {
      cleanup?.();
      root.remove();
    },
    ask(challenge) {
      cleanup?.();
      const scale = width / challenge.width;
      const max = Math.max(0, challenge.width - challenge.pieceWidth);
      background.src = challenge.background;
      piece.src = challenge.piece;
      css(stage, { height: `${challenge.height * scale}px` });
      css(piece, {
        top: `${challenge.pieceY * scale}px`,
        width: `${challenge.pieceWidth * scale}px`,
        height: `${challenge.pieceHeight * scale}px`,
      });
      handle.setAttribute('aria-valuemax', String(max));
      handle.removeAttribute('aria-disabled');
      const trackRange = width - HANDLE;
      let position = 0;
      const show = (x: number) => {
        position = Math.min(max, Math.max(0, x));
        const rounded = Math.round(position);
        piece.style.setProperty('left', `${position * scale}px`);
        handle.style.setProperty('left', `${max === 0 ? 0 : (position / max) * trackRange}px`);
        handle.setAttribute('aria-valuenow', String(rounded));
        handle.setAttribute('aria-valuetext', text.position(rounded, max));
        // The hint has said its piece once the piece moves.
        hint.style.setProperty('visibility', position > 0 ? 'hidden' : 'visible');
      };
      show(0);

      return new Promise<SlideAnswer | 'expired'>((resolve) => {
        const trajectory = createTrajectory();
        let dragging: { x: number; pointerId: number } | undefined;
        let keyboardStarted = false;
        // Pointer pixels on the track map onto background pixels of the puzzle.
        const toPuzzle = (dx: number) => (trackRange === 0 ? 0 : (dx / trackRange) * max);
        const finish = (input: SlideAnswer['input']) => {
          cleanup?.();
          handle.setAttribute('aria-disabled', 'true');
          resolve({ id: challenge.id, x: Math.round(position * 10) / 10, trajectory: trajectory.samples(), input });
        };
        const down = (event: PointerEvent) => {
          event.preventDefault();
          dragging = { x: event.clientX, pointerId: event.pointerId };
          handle.setPointerCapture?.(event.pointerId);
          trajectory.start(0, event.clientY, timers.now());
          handle.style.setProperty('cursor', 'grabbing');
        };
        const move = (event: PointerEvent) => {
          if (!dragging || event.pointerId !== dragging.pointerId) return;
          show(toPuzzle(event.clientX - dragging.x));
          trajectory.add(position, event.clientY, timers.now());
        };
        const up = (event: PointerEvent) => {
          if (!dragging || event.pointerId !== dragging.pointerId) return;
          show(toPuzzle(event.clientX - dragging.x));
          trajectory.add(position, event.clientY, timers.now());
          dragging = undefined;
          finish('pointer');
        };
        const key = (event: KeyboardEvent) => {
          if (isSubmitKey(event.key)) {
            event.preventDefault();
            if (keyboardStarted) finish('keyboard');
            return;
          }
          const next = positionForKey(event.key, Math.round(position), max);
          if (next === undefined) return;
          event.preventDefault();
          if (!keyboardStarted) {
            keyboardStarted = true;
            trajectory.start(0, 0, timers.now());
          }
          show(next);
          trajectory.add(position, 0, timers.now());
        };
        const expiry = timers.setTimeout(() => {
          cleanup?.();
          handle.setAttribute('aria-disabled', 'true');
          resolve('expired');
        }, challenge.expiresIn * 1000);
        handle.addEventListener('pointerdown', down);
        handle.addEventListener('pointermove', move);
        handle.addEventListener('pointerup', up);
        handle.addEventListener('pointercancel', up);
        handle.addEventListener('keydown', key);
        cleanup = () => {
          timers.clearTimeout(expiry);
          handle.removeEventListener('pointerdown', down);
          handle.removeEventListener('pointermove', move);
          handle.removeEventListener('pointerup', up);
          handle.removeEventListener('pointercancel', up);
          handle.removeEventListener('keydown', key);
          cleanup = undefined;
        };
        handle.focus();
      });
    },
  };
};
