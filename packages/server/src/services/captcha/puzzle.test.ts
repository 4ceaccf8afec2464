/**
 * The slide puzzle's piece is outlined: a white line over a dark band along its whole edge, so it
 * stands out on any scenery instead of fading into it.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { drawPuzzle, PIECE_SIZE } from './puzzle.ts';

/** A repeatable stand-in for randomInt, so each case draws the same scenery every run. */
const seeded = (seed: number) => {
  let state = seed;
  return (max: number) => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state % max;
  };
};

const pixels = async (png: Buffer) => {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return (x: number, y: number) => {
    const at = (y * info.width + x) * info.channels;
    const [r = 0, g = 0, b = 0, a = 0] = data.subarray(at, at + 4);
    return { luminance: 0.2126 * r + 0.7152 * g + 0.0722 * b, alpha: a };
  };
};

describe('the slide puzzle piece', () => {
  it.each([1, 2, 3, 4, 5, 6])(
    'has an opaque white edge over a dark band whatever the scenery (seed %i)',
    async (seed) => {
      const { piece } = await drawPuzzle(seeded(seed));
      const at = await pixels(piece);
      // The bottom edge of the square body (y = 48) and its left edge (x = 0).
      for (let x = 6; x <= 32; x += 2) {
        expect(at(x, PIECE_SIZE - 1), `bottom edge x=${x}`).toMatchObject({ alpha: 255 });
        expect(at(x, PIECE_SIZE - 1).luminance, `bottom edge x=${x}`).toBeGreaterThan(240);
        expect(at(x, PIECE_SIZE - 2).luminance, `band above the edge x=${x}`).toBeLessThan(40);
      }
      for (let y = 14; y <= 42; y += 2) {
        expect(at(0, y).luminance, `left edge y=${y}`).toBeGreaterThan(240);
        expect(at(1, y).luminance, `band inside the left edge y=${y}`).toBeLessThan(40);
      }
      // Outside the shape the piece is transparent: only the piece is drawn over the background.
      expect(at(PIECE_SIZE - 2, 2).alpha).toBe(0);
    },
  );
});
