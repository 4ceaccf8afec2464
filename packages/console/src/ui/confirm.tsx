/**
 * The console's question before a destructive or breaking action: the ui-kit ConfirmDialog in the
 * console's buttons (the action in the danger colour) and its Cancel word. Every such action asks here.
 */
import { ConfirmDialog, type ConfirmDialogProps } from '@edupass/ui-kit/confirm-dialog.tsx';
import { useConsoleText } from '../i18n/i18n.ts';

export type ConsoleConfirmProps = Pick<
  ConfirmDialogProps,
  'title' | 'body' | 'confirmLabel' | 'onConfirm' | 'onCancel'
>;

export const ConsoleConfirm = (props: ConsoleConfirmProps) => {
  const { t } = useConsoleText();
  return (
    <ConfirmDialog
      {...props}
      cancelLabel={t('confirm.cancel')}
      buttonClass="console-button console-button-danger"
      quietButtonClass="console-button console-button-quiet"
    />
  );
};
