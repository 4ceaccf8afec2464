/**
 * Asking before an action that cannot be undone (a username set once, an unbinding, a device signed
 * out): a modal alert dialog that says what will happen, opened on the safe choice. Esc or "Cancel"
 * says no; Tab stays inside it; focus goes back to what opened it.
 *
 *   const confirm = useConfirm();
 *   if (await confirm.ask({ title, body, confirmLabel })) …;   // and render {confirm.dialog}
 */
import { type KeyboardEvent, type ReactNode, useCallback, useEffect, useId, useRef, useState } from 'react';
import { useI18n } from '../i18n/i18n.ts';

export interface ConfirmOptions {
  title: string;
  body: string;
  /** The button that goes ahead, named after the action ("Unbind WeChat"). */
  confirmLabel: string;
}

interface Pending extends ConfirmOptions {
  answer(yes: boolean): void;
}

const ConfirmDialog = ({ pending }: { pending: Pending }) => {
  const { t } = useI18n();
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const bodyId = useId();
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    cancel.current?.focus();
  }, []);
  // Tab and Shift+Tab go round the dialog's buttons rather than out to the page behind.
  const keepFocusInside = (event: KeyboardEvent) => {
    if (event.key !== 'Tab' || !dialog.current) return;
    const buttons = [...dialog.current.querySelectorAll<HTMLElement>('button')];
    const first = buttons[0];
    const last = buttons[buttons.length - 1];
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last?.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first?.focus();
    }
  };
  return (
    <dialog
      ref={dialog}
      className="confirm-dialog"
      role="alertdialog"
      aria-modal="true"
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      onCancel={(event) => {
        event.preventDefault();
        pending.answer(false);
      }}
      onKeyDown={keepFocusInside}
    >
      <h2 id={titleId}>{pending.title}</h2>
      <p id={bodyId}>{pending.body}</p>
      <div className="actions">
        <button ref={cancel} type="button" className="button secondary" onClick={() => pending.answer(false)}>
          {t('confirm.cancel')}
        </button>
        <button type="button" className="button danger" onClick={() => pending.answer(true)}>
          {pending.confirmLabel}
        </button>
      </div>
    </dialog>
  );
};

export interface Confirm {
  /** Opens the dialog; resolves true when the user goes ahead. */
  ask(options: ConfirmOptions): Promise<boolean>;
  /** Render it where the screen's content is. */
  dialog: ReactNode;
}

export const useConfirm = (): Confirm => {
  const [pending, setPending] = useState<Pending | null>(null);
  const ask = useCallback(
    (options: ConfirmOptions) =>
      new Promise<boolean>((resolve) => {
        const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
        setPending({
          ...options,
          answer: (yes) => {
            setPending(null);
            // Back to what opened it, once the dialog is gone (an opener removed by the action is skipped).
            requestAnimationFrame(() => {
              if (opener?.isConnected) opener.focus();
            });
            resolve(yes);
          },
        });
      }),
    [],
  );
  return { ask, dialog: pending ? <ConfirmDialog pending={pending} /> : null };
};
