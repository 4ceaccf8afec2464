/** Calls `fn` at most once per `ms`, always ending with a call after the last event (trailing). */
export const throttle = (fn: () => void, ms: number): { run(): void; cancel(): void } => {
  let last = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const fire = () => {
    timer = undefined;
    last = Date.now();
    fn();
  };
  return {
    run() {
      const wait = last + ms - Date.now();
      if (wait <= 0) fire();
      else timer ??= globalThis.setTimeout(fire, wait);
    },
    cancel() {
      if (timer !== undefined) globalThis.clearTimeout(timer);
      timer = undefined;
    },
  };
};
