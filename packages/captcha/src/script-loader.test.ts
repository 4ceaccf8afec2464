import { describe, expect, it } from 'vitest';
import { loadScript } from './script-loader.ts';
import { createManualClock } from './testing-clock.ts';

/** Just enough of a document for the loader: script elements whose load outcome the test decides. */
const fakeDocument = (outcomes: ('load' | 'error' | 'hang')[]) => {
  const appended: { src: string; removed: boolean }[] = [];
  const head = {
    appendChild(script: { src: string; onload: (() => void) | null; onerror: (() => void) | null }) {
      const entry = { src: script.src, removed: false };
      appended.push(entry);
      const outcome = outcomes.shift() ?? 'error';
      queueMicrotask(() => {
        if (outcome === 'load') script.onload?.();
        if (outcome === 'error') script.onerror?.();
      });
      Object.assign(script, { remove: () => (entry.removed = true) });
      return script;
    },
  };
  const document = {
    head,
    createElement: () => ({ src: '', async: false, onload: null, onerror: null, setAttribute() {}, remove() {} }),
  } as unknown as Document;
  return { document, appended };
};

describe('the script loader', () => {
  it('retries a failed load and removes the failed tags', async () => {
    const clock = createManualClock();
    const { document, appended } = fakeDocument(['error', 'error', 'load']);
    const done = loadScript(document, 'https://cdn.test/gt.js', { attempts: 3, timers: clock.timers });
    await clock.advance(5_000);
    await expect(done).resolves.toBeUndefined();
    expect(appended.map((a) => a.removed)).toEqual([true, true, false]);
  });

  it('gives up after the last try with "fatal error occurred"', async () => {
    const clock = createManualClock();
    const { document, appended } = fakeDocument(['error', 'error', 'error']);
    const done = loadScript(document, 'https://cdn.test/a.js', { attempts: 3, timers: clock.timers });
    const settled = done.catch((error: Error) => error);
    await clock.advance(5_000);
    expect(await settled).toMatchObject({ message: 'fatal error occurred', name: 'CAPTCHA_ERROR' });
    expect(appended).toHaveLength(3);
  });

  it('abandons a try that hangs past its time-out', async () => {
    const clock = createManualClock();
    const { document, appended } = fakeDocument(['hang', 'load']);
    const done = loadScript(document, 'https://cdn.test/b.js', { attempts: 2, timeoutMs: 1_000, timers: clock.timers });
    await clock.advance(3_000);
    await expect(done).resolves.toBeUndefined();
    expect(appended).toHaveLength(2);
  });

  it('loads a script once per page', async () => {
    const clock = createManualClock();
    const { document, appended } = fakeDocument(['load']);
    await loadScript(document, 'https://cdn.test/c.js', { timers: clock.timers });
    await loadScript(document, 'https://cdn.test/c.js', { timers: clock.timers });
    expect(appended).toHaveLength(1);
  });
});
