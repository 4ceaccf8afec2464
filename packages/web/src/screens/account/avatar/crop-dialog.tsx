/**
 * The crop dialog, a chunk of its own loaded when a picture is chosen: the picture in a square frame with
 * the round part kept marked, moved by dragging or the arrow keys, zoomed by the slider or + and −.
 * Save encodes the crop (encode-crop.ts) and hands it over; Cancel, Escape or the backdrop's close keep
 * the old picture.
 */

import { FormError } from '@edupass/ui-kit/status.tsx';
import { type KeyboardEvent, type PointerEvent, useEffect, useId, useRef, useState } from 'react';
import { useI18n } from '../../../i18n/i18n.ts';
import { type Crop, initialCrop, moveCrop, pictureBox, sourceSquare, ZOOM, zoomCrop } from './crop-geometry.ts';
import { encodeCrop } from './encode-crop.ts';
import type { Picture } from './picture-file.ts';
import './crop-dialog.css';

export interface CropDialogProps {
  picture: Picture;
  /** Closed without saving. */
  onCancel(): void;
  /** The crop, encoded as a data URL ready for uploadAvatar. */
  onCropped(image: string): void;
}

/** How far one arrow key press moves the picture, in frames (with Shift: BIG_STEP). */
const STEP = 0.05;
const BIG_STEP = 0.2;

const ARROWS: Record<string, [number, number]> = {
  ArrowLeft: [-1, 0],
  ArrowRight: [1, 0],
  ArrowUp: [0, -1],
  ArrowDown: [0, 1],
};

const CropDialog = ({ picture, onCancel, onCropped }: CropDialogProps) => {
  const { t } = useI18n();
  const dialog = useRef<HTMLDialogElement>(null);
  const frame = useRef<HTMLDivElement>(null);
  const drag = useRef<{ pointer: number; x: number; y: number; side: number } | null>(null);
  const [crop, setCrop] = useState<Crop>(() => initialCrop(picture));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const titleId = useId();
  const helpId = useId();
  const zoomId = useId();

  useEffect(() => {
    dialog.current?.showModal();
    frame.current?.focus();
  }, []);

  const move = (dx: number, dy: number) => setCrop((current) => moveCrop(current, picture, dx, dy));
  const zoomBy = (delta: number) => setCrop((current) => zoomCrop(current, picture, current.zoom + delta));

  const onKeyDown = (event: KeyboardEvent) => {
    const arrow = ARROWS[event.key];
    if (arrow) {
      const step = event.shiftKey ? BIG_STEP : STEP;
      move(arrow[0] * step, arrow[1] * step);
    } else if (event.key === '+' || event.key === '=') zoomBy(ZOOM.step);
    else if (event.key === '-' || event.key === '_') zoomBy(-ZOOM.step);
    else return;
    event.preventDefault();
  };

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    event.currentTarget.setPointerCapture(event.pointerId);
    const side = event.currentTarget.getBoundingClientRect().width;
    drag.current = { pointer: event.pointerId, x: event.clientX, y: event.clientY, side };
  };
  const onPointerMove = (event: PointerEvent) => {
    const from = drag.current;
    if (!from || from.pointer !== event.pointerId || from.side === 0) return;
    move((event.clientX - from.x) / from.side, (event.clientY - from.y) / from.side);
    drag.current = { ...from, x: event.clientX, y: event.clientY };
  };
  const endDrag = () => {
    drag.current = null;
  };

  const save = async () => {
    setBusy(true);
    setError(null);
    try {
      onCropped(await encodeCrop(picture.image, sourceSquare(crop, picture)));
    } catch {
      setError(t('crop.encodeFailed'));
      setBusy(false);
    }
  };

  const box = pictureBox(crop, picture);
  return (
    <dialog ref={dialog} className="crop-dialog" aria-labelledby={titleId} onClose={onCancel}>
      <h2 id={titleId}>{t('crop.title')}</h2>
      <p id={helpId} className="hint">
        {t('crop.help')}
      </p>
      <div
        ref={frame}
        className="crop-frame"
        // "application": screen readers pass the arrow keys through, which move the picture here.
        role="application"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: the frame is the control (arrow keys, + and −); it must take the focus.
        tabIndex={0}
        aria-label={t('crop.area')}
        aria-describedby={helpId}
        onKeyDown={onKeyDown}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={endDrag}
        onPointerCancel={endDrag}
      >
        <img
          src={picture.url}
          alt=""
          draggable={false}
          style={{ left: `${box.left}%`, top: `${box.top}%`, width: `${box.width}%`, height: `${box.height}%` }}
        />
        <span className="crop-mask" aria-hidden="true" />
      </div>
      <div className="field crop-zoom">
        <label htmlFor={zoomId}>{t('crop.zoom')}</label>
        <input
          id={zoomId}
          type="range"
          min={ZOOM.min}
          max={ZOOM.max}
          step={0.01}
          value={crop.zoom}
          aria-valuetext={`${Math.round(crop.zoom * 100)}%`}
          onChange={(event) => setCrop((current) => zoomCrop(current, picture, Number(event.target.value)))}
        />
      </div>
      <FormError message={error} />
      <div className="crop-actions">
        <button type="button" className="button ghost" onClick={() => dialog.current?.close()}>
          {t('crop.cancel')}
        </button>
        <button type="button" className="button primary" aria-busy={busy} onClick={() => void save()}>
          {busy ? t('crop.saving') : t('crop.save')}
        </button>
      </div>
    </dialog>
  );
};

export default CropDialog;
