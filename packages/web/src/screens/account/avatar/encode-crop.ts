/**
 * The crop drawn to an OUTPUT_SIZE square and encoded for upload: WebP where the browser can encode it
 * (Safari before 17 cannot: it answers PNG), JPEG otherwise, the quality lowered step by step until the
 * file fits AVATAR.maxBytes. The server re-encodes it at AVATAR.size; twice that keeps it sharp.
 */
import { AVATAR } from '@edupass/protocol';

export const OUTPUT_SIZE = 512;
const QUALITIES = [0.9, 0.8, 0.7, 0.6, 0.5, 0.4];
const TYPES = ['image/webp', 'image/jpeg'] as const;

const toBlob = (canvas: HTMLCanvasElement, type: string, quality: number) =>
  new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, type, quality));

const toDataUrl = (blob: Blob) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(blob);
  });

const draw = (image: CanvasImageSource, square: { x: number; y: number; side: number }, opaque: boolean) => {
  const canvas = document.createElement('canvas');
  canvas.width = OUTPUT_SIZE;
  canvas.height = OUTPUT_SIZE;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('No 2D canvas');
  // JPEG has no transparency: a transparent PNG would turn black without a white ground.
  if (opaque) {
    context.fillStyle = '#fff';
    context.fillRect(0, 0, OUTPUT_SIZE, OUTPUT_SIZE);
  }
  context.imageSmoothingQuality = 'high';
  context.drawImage(image, square.x, square.y, square.side, square.side, 0, 0, OUTPUT_SIZE, OUTPUT_SIZE);
  return canvas;
};

/** A data URL of at most `maxBytes` bytes of picture; rejects when even the lowest quality is too large. */
export const encodeCrop = async (
  image: CanvasImageSource,
  square: { x: number; y: number; side: number },
  maxBytes: number = AVATAR.maxBytes,
): Promise<string> => {
  for (const type of TYPES) {
    const canvas = draw(image, square, type === 'image/jpeg');
    for (const quality of QUALITIES) {
      const blob = await toBlob(canvas, type, quality);
      // A browser that cannot encode `type` answers PNG: try the next type.
      if (!blob || blob.type !== type) break;
      if (blob.size <= maxBytes) return toDataUrl(blob);
    }
  }
  throw new Error('The cropped picture is too large to send');
};
