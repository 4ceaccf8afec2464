/**
 * The crop as numbers, free of the DOM: the square kept is centred on (x, y), in the picture's own
 * pixels, and is the picture's shorter side divided by `zoom` wide. Kept inside the picture, so the saved
 * square never shows an empty edge. The frame on screen is any size: positions are in fractions of it.
 */

export const ZOOM = { min: 1, max: 4, step: 0.1 } as const;

export interface Crop {
  x: number;
  y: number;
  zoom: number;
}

export interface PictureSize {
  width: number;
  height: number;
}

const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));

/** The side of the square kept, in the picture's pixels. */
export const cropSide = (size: PictureSize, zoom: number) => Math.min(size.width, size.height) / zoom;

/** The whole picture's largest centred square. */
export const initialCrop = (size: PictureSize): Crop => ({ x: size.width / 2, y: size.height / 2, zoom: ZOOM.min });

/** `crop` with its zoom within ZOOM and its square inside the picture. */
export const clampCrop = (crop: Crop, size: PictureSize): Crop => {
  const zoom = clamp(crop.zoom, ZOOM.min, ZOOM.max);
  const half = cropSide(size, zoom) / 2;
  return { zoom, x: clamp(crop.x, half, size.width - half), y: clamp(crop.y, half, size.height - half) };
};

/**
 * The picture moved by (dx, dy) fractions of the frame: moving it right (dx > 0) shows more of its left
 * side, so the centre of the square goes left.
 */
export const moveCrop = (crop: Crop, size: PictureSize, dx: number, dy: number): Crop => {
  const side = cropSide(size, crop.zoom);
  return clampCrop({ ...crop, x: crop.x - dx * side, y: crop.y - dy * side }, size);
};

/** Zoomed to `zoom` about the frame's centre. */
export const zoomCrop = (crop: Crop, size: PictureSize, zoom: number): Crop => clampCrop({ ...crop, zoom }, size);

/** The square to draw, in the picture's pixels (canvas drawImage's source rectangle). */
export const sourceSquare = (crop: Crop, size: PictureSize) => {
  const side = cropSide(size, crop.zoom);
  return { x: crop.x - side / 2, y: crop.y - side / 2, side };
};

/** Where the picture sits in the frame, in percent of the frame's side (CSS left, top, width, height). */
export const pictureBox = (crop: Crop, size: PictureSize) => {
  const perPixel = 100 / cropSide(size, crop.zoom);
  return {
    left: 50 - crop.x * perPixel,
    top: 50 - crop.y * perPixel,
    width: size.width * perPixel,
    height: size.height * perPixel,
  };
};
