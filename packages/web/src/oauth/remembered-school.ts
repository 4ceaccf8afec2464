/**
 * The school this device signed in with last (localStorage `edupass.school`): the chooser puts it
 * first, and a device that has one may hold a session only as its cookie (main.tsx). Kept apart from
 * the sign-in's own module (school.ts), which the first screen does not load.
 */
const REMEMBERED = 'edupass.school';

export const rememberedSchool = (): string | null => {
  try {
    return localStorage.getItem(REMEMBERED);
  } catch {
    return null;
  }
};

export const rememberSchool = (code: string): void => {
  try {
    localStorage.setItem(REMEMBERED, code);
  } catch {
    // Storage off: nothing is remembered.
  }
};
