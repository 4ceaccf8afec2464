/** After an in-app navigation, focus moves to the new screen's heading, so keyboard and screen-reader users start there. */
let requested = false;

export const requestFocus = (): void => {
  requested = true;
};

/** Whether this screen should take focus (once per navigation). */
export const takeFocusRequest = (): boolean => {
  const was = requested;
  requested = false;
  return was;
};
