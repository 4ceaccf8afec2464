/**
 * The one question asked before a destructive or breaking action (remove, replace a secret, rotate
 * keys, disable, block, delete, reset): a modal dialog whose title names the thing, with Cancel and the
 * action. Escape or Cancel leaves everything as it was. The texts come from the caller, in its language.
 */
import { useEffect, useId, useRef } from 'react';

export interface ConfirmDialogProps {
  /** The question, naming the thing ('Remove "Courses"?'). */
  title: string;
  /** What happens then, when it is not obvious. */
  body?: string;
  /** The action's own word ('Remove'), on the button that does it. */
  confirmLabel: string;
  cancelLabel: string;
  onConfirm(): void;
  onCancel(): void;
  /** The caller's button classes. */
  buttonClass?: string;
  quietButtonClass?: string;
}

export const ConfirmDialog = ({
  title,
  body,
  confirmLabel,
  cancelLabel,
  onConfirm,
  onCancel,
  buttonClass,
  quietButtonClass,
}: ConfirmDialogProps) => {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const bodyId = useId();
  useEffect(() => {
    const shown = dialog.current;
    if (shown && !shown.open) shown.showModal();
    return () => shown?.close();
  }, []);
  return (
    <dialog
      ref={dialog}
      className="confirm-dialog"
      aria-labelledby={titleId}
      aria-describedby={body ? bodyId : undefined}
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
    >
      <h2 id={titleId}>{title}</h2>
      {body ? <p id={bodyId}>{body}</p> : null}
      <div className="confirm-dialog-actions">
        {/* First, so showModal() puts the focus on it: Enter by habit does not destroy anything. */}
        <button type="button" className={quietButtonClass} onClick={onCancel}>
          {cancelLabel}
        </button>
        <button type="button" className={buttonClass} onClick={onConfirm}>
          {confirmLabel}
        </button>
      </div>
    </dialog>
  );
};
