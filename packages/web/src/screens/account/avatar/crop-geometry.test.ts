import { describe, expect, it } from 'vitest';
import { clampCrop, initialCrop, moveCrop, pictureBox, sourceSquare, ZOOM, zoomCrop } from './crop-geometry.ts';

const wide = { width: 600, height: 400 };

describe('the crop square', () => {
  it('starts as the largest centred square, filling the frame', () => {
    const crop = initialCrop(wide);
    expect(sourceSquare(crop, wide)).toEqual({ x: 100, y: 0, side: 400 });
    expect(pictureBox(crop, wide)).toEqual({ left: -25, top: 0, width: 150, height: 100 });
  });

  it('moves the picture right by showing more of its left side, and never past its edge', () => {
    const crop = initialCrop(wide);
    expect(sourceSquare(moveCrop(crop, wide, 0.1, 0), wide).x).toBeCloseTo(60);
    expect(sourceSquare(moveCrop(crop, wide, 5, 0), wide).x).toBe(0);
    expect(sourceSquare(moveCrop(crop, wide, -5, 0), wide).x).toBe(200);
    // At zoom 1 the square is as tall as the picture: nothing to move up or down.
    expect(moveCrop(crop, wide, 0, 0.3).y).toBe(200);
  });

  it('zooms about the centre within ZOOM, halving the square at zoom 2', () => {
    const zoomed = zoomCrop(initialCrop(wide), wide, 2);
    expect(sourceSquare(zoomed, wide)).toEqual({ x: 200, y: 100, side: 200 });
    expect(zoomCrop(zoomed, wide, 99).zoom).toBe(ZOOM.max);
    expect(zoomCrop(zoomed, wide, 0.2).zoom).toBe(ZOOM.min);
  });

  it('zooming out pulls a square near an edge back inside the picture', () => {
    const corner = moveCrop(zoomCrop(initialCrop(wide), wide, 4), wide, -10, -10);
    expect(sourceSquare(corner, wide)).toEqual({ x: 500, y: 300, side: 100 });
    const out = clampCrop({ ...corner, zoom: 1 }, wide);
    expect(sourceSquare(out, wide)).toEqual({ x: 200, y: 0, side: 400 });
  });
});
