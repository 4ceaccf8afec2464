/** Keyboard control of the slider (WAI-ARIA slider pattern): the new position for a key, or undefined. */

export const PAGE_STEP = 10;

export const positionForKey = (key: string, current: number, max: number): number | undefined => {
  const clamp = (value: number) => Math.min(max, Math.max(0, value));
  switch (key) {
    case 'ArrowRight':
    case 'ArrowUp':
      return clamp(current + 1);
    case 'ArrowLeft':
    case 'ArrowDown':
      return clamp(current - 1);
    case 'PageUp':
      return clamp(current + PAGE_STEP);
    case 'PageDown':
      return clamp(current - PAGE_STEP);
    case 'Home':
      return 0;
    case 'End':
      return max;
    default:
      return undefined;
  }
};

/** Keys that submit the current position. */
export const isSubmitKey = (key: string) => key === 'Enter' || key === ' ';
