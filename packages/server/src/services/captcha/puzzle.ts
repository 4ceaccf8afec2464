/**
 * Draws a slide puzzle: a random background with a jigsaw-shaped gap, and the piece cut from the
 * same spot, as PNGs. The gap's position is returned to the caller (the server) and nowhere else.
 */
import { randomInt } from 'node:crypto';
import sharp from 'sharp';

export const PUZZLE_WIDTH = 300;
export const PUZZLE_HEIGHT = 150;
/** The piece: a 40-pixel square with knobs on its top and right, in a 48×48 box. */
export const PIECE_SIZE = 48;
const SHAPE =
  '<rect x="0" y="8" width="40" height="40" rx="3"/><circle cx="20" cy="8" r="7"/><circle cx="40" cy="28" r="7"/>';

/**
 * The piece's edge, drawn over it: a dark band under a white line, so the piece stands out on any
 * scenery (light or dark, busy or flat) and its shape reads at a glance against the gap's.
 */
const PIECE_OUTLINE = `<g fill="none" stroke-linejoin="round"><g stroke="#111" stroke-width="4">${SHAPE}</g><g stroke="#fff" stroke-width="2">${SHAPE}</g></g>`;

export interface Puzzle {
  background: Buffer;
  piece: Buffer;
  /** The gap's left edge: the answer. */
  x: number;
  y: number;
}

const svg = (width: number, height: number, body: string) =>
  Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${body}</svg>`);

/** Busy, random scenery, so the gap cannot be found by looking for the one edge in a flat image. */
const scenery = (random: (max: number) => number) => {
  const hue = random(360);
  const shapes: string[] = [];
  for (let i = 0; i < 28; i++) {
    const h = (hue + random(120) - 60 + 360) % 360;
    const fill = `hsla(${h},${40 + random(40)}%,${35 + random(40)}%,${(0.35 + random(50) / 100).toFixed(2)})`;
    shapes.push(
      random(2) === 0
        ? `<circle cx="${random(PUZZLE_WIDTH)}" cy="${random(PUZZLE_HEIGHT)}" r="${6 + random(34)}" fill="${fill}"/>`
        : `<rect x="${random(PUZZLE_WIDTH)}" y="${random(PUZZLE_HEIGHT)}" width="${10 + random(60)}" height="${10 + random(40)}" fill="${fill}" transform="rotate(${random(90)} ${random(PUZZLE_WIDTH)} ${random(PUZZLE_HEIGHT)})"/>`,
    );
  }
  return svg(
    PUZZLE_WIDTH,
    PUZZLE_HEIGHT,
    `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue},55%,70%)"/><stop offset="1" stop-color="hsl(${(hue + 140) % 360},55%,40%)"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/>${shapes.join('')}`,
  );
};

export const drawPuzzle = async (random: (max: number) => number = (max) => randomInt(max)): Promise<Puzzle> => {
  const x = PIECE_SIZE + 20 + random(PUZZLE_WIDTH - 2 * PIECE_SIZE - 24);
  const y = 4 + random(PUZZLE_HEIGHT - PIECE_SIZE - 8);
  const clean = await sharp(scenery(random)).png().toBuffer();
  const hole = svg(PIECE_SIZE, PIECE_SIZE, `<g fill="rgba(0,0,0,0.6)" stroke="#fff" stroke-width="1.5">${SHAPE}</g>`);
  const mask = svg(PIECE_SIZE, PIECE_SIZE, `<g fill="#fff">${SHAPE}</g>`);
  const outline = svg(PIECE_SIZE, PIECE_SIZE, PIECE_OUTLINE);
  const [background, piece] = await Promise.all([
    sharp(clean)
      .composite([{ input: hole, left: x, top: y }])
      .png({ compressionLevel: 9, palette: true })
      .toBuffer(),
    sharp(clean)
      .extract({ left: x, top: y, width: PIECE_SIZE, height: PIECE_SIZE })
      .composite([{ input: mask, blend: 'dest-in' }, { input: outline }])
      .png({ compressionLevel: 9 })
      .toBuffer(),
  ]);
  return { background, piece, x, y };
};
