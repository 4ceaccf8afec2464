/**
 * Reads the QR codes of a login-card sheet as a scanner would: each card's SVG is drawn into pixels
 * (its dark strokes, module by module) and decoded with jsQR, so a test signs in with what is
 * printed, not with the server's copy of a badge.
 */
import jsQRModule from 'jsqr';

// A CommonJS module whose types say `export default`: the function is the module or its `default`.
type Decode = typeof import('jsqr')['default'];
const loaded = jsQRModule as unknown as Decode | { default: Decode };
const jsQR: Decode = typeof loaded === 'function' ? loaded : loaded.default;

/** A QR code in RGBA pixels (a screenshot, a printed page rendered to PNG), decoded; null when none is found. */
export const decodeQrPixels = (pixels: Uint8ClampedArray, width: number, height: number): string | null =>
  jsQR(pixels, width, height)?.data ?? null;

const SCALE = 4;

/** The pixels of one `qrcode` SVG (a `viewBox` and one stroked path of `M`/`m` moves and `h` runs). */
const rasterize = (svg: string) => {
  const size = Number(/viewBox="0 0 (\d+) \d+"/.exec(svg)?.[1]);
  const path = /<path stroke="[^"]+" d="([^"]+)"/.exec(svg)?.[1];
  if (!size || !path) throw new Error('not a QR code SVG');
  const width = size * SCALE;
  const pixels = new Uint8ClampedArray(width * width * 4).fill(255);
  let x = 0;
  let y = 0;
  for (const [, op, a, b] of path.matchAll(/([Mmh])(-?[\d.]+)(?: (-?[\d.]+))?/g)) {
    if (op === 'M') [x, y] = [Number(a), Number(b)];
    else if (op === 'm') [x, y] = [x + Number(a), y + Number(b)];
    else {
      const row = Math.floor(y);
      for (let col = x; col < x + Number(a); col++) {
        for (let dy = 0; dy < SCALE; dy++) {
          for (let dx = 0; dx < SCALE; dx++) {
            const at = ((row * SCALE + dy) * width + col * SCALE + dx) * 4;
            pixels.fill(0, at, at + 3);
          }
        }
      }
      x += Number(a);
    }
  }
  return { pixels, width };
};

/** The text of each QR code in the sheet's HTML, in card order. */
export const decodeCardQrCodes = (html: string): string[] =>
  [...html.matchAll(/<svg[\s\S]*?<\/svg>/g)].map(([svg]) => {
    const { pixels, width } = rasterize(svg);
    const code = jsQR(pixels, width, width);
    if (!code) throw new Error('a card QR code did not decode');
    return code.data;
  });

/** The badge a card's QR link carries (after `#`). */
export const badgeOf = (link: string) => link.slice(link.indexOf('#') + 1);
