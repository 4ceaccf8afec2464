/** The end of a form: its own error (with a retry where one may help) and the submit button, which says when it is at work. */

import { FormError } from '@edupass/ui-kit/status.tsx';
import type { Action } from '@edupass/ui-kit/use-action.ts';
import { useI18n } from '../i18n/i18n.ts';
import { SlowNotice } from './slow-notice.tsx';

export const FormEnd = ({ action, submit }: { action: Action; submit: string }) => {
  const { t } = useI18n();
  return (
    <>
      <FormError message={action.error} onRetry={action.retry} />
      <button type="submit" className="button primary block" aria-busy={action.busy}>
        {action.busy ? t('form.working') : submit}
      </button>
      <SlowNotice busy={action.busy} />
    </>
  );
};
