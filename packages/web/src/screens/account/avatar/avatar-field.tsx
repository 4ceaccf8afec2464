/**
 * The profile's picture: the current one (initials when there is none), "Change picture" opening a file
 * chooser, then the crop dialog (its own chunk, crop-dialog.tsx), then the upload. What the browser can
 * refuse is said here before uploading; the server's refusal and a network failure (with a retry of the
 * same crop) are said here too. A picture URL stays possible, folded away below.
 */
import { uploadAvatar } from '@edupass/account/avatar';
import { AVATAR } from '@edupass/protocol';
import { Notice } from '@edupass/ui-kit/status.tsx';
import { type ChangeEvent, type ComponentType, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { useI18n } from '../../../i18n/i18n.ts';
import { client } from '../../../session/account.ts';
import { trackEvent } from '../../../telemetry/telemetry.ts';
import { Avatar } from '../account-layout.tsx';
import type { CropDialogProps } from './crop-dialog.tsx';
import { openPicture, type Picture, PictureFileError } from './picture-file.ts';
import './avatar-field.css';

type CropDialogComponent = ComponentType<CropDialogProps>;
const loadCropDialog = (): Promise<CropDialogComponent> => import('./crop-dialog.tsx').then((module) => module.default);

const isNetworkFailure = (error: unknown) =>
  error instanceof Error && (error.name === 'REQUEST_ERROR' || error.name === 'REQUEST_TIMEOUT');

interface Failure {
  message: string;
  /** The crop to send again, when the failure was the network's. */
  retry?: string;
}

export interface AvatarFieldProps {
  /** The picture's URL now ('' for none). */
  url: string;
  /** Whose initials stand in when there is no picture. */
  name: string;
  onUploaded(url: string): void;
  /** The picture-URL field, shown folded away as the other way. */
  children?: ReactNode;
}

export const AvatarField = ({ url, name, onUploaded, children }: AvatarFieldProps) => {
  const { t, errorText } = useI18n();
  const input = useRef<HTMLInputElement>(null);
  const [picture, setPicture] = useState<Picture | null>(null);
  const [CropDialog, setCropDialog] = useState<CropDialogComponent | null>(null);
  const [pending, setPending] = useState<string | null>(null);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const hintId = useId();
  const errorId = useId();

  useEffect(() => () => picture?.release(), [picture]);

  const preload = () => {
    if (!CropDialog)
      loadCropDialog().then(
        (dialog) => setCropDialog(() => dialog),
        () => {},
      );
  };

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // Cleared so that choosing the same file again is a change too.
    event.target.value = '';
    if (!file) return;
    setFailure(null);
    setNotice(null);
    try {
      const [opened, dialog] = await Promise.all([openPicture(file), CropDialog ?? loadCropDialog()]);
      setCropDialog(() => dialog);
      setPicture(opened);
    } catch (error) {
      setFailure({
        message:
          error instanceof PictureFileError
            ? t(error.problem === 'tooLarge' ? 'avatar.tooLarge' : 'avatar.notPicture')
            : t('avatar.editorFailed'),
      });
    }
  };

  const upload = async (image: string) => {
    setPending(image);
    setFailure(null);
    setNotice(null);
    try {
      const answer = await uploadAvatar(client, { image });
      onUploaded(answer.avatar_url);
      setNotice(t('avatar.saved'));
      trackEvent('avatar_uploaded');
    } catch (error) {
      if (isNetworkFailure(error)) setFailure({ message: errorText(error), retry: image });
      else if (error instanceof Error && error.name === 'INVALID_REQUEST') setFailure({ message: t('avatar.refused') });
      else setFailure({ message: errorText(error) });
    } finally {
      setPending(null);
    }
  };

  const described = [hintId, failure ? errorId : ''].filter(Boolean).join(' ');
  return (
    <fieldset className={`field avatar-field${failure ? ' invalid' : ''}`}>
      <legend>{t('profile.avatar')}</legend>
      <div className="avatar-field-row">
        <Avatar url={pending ?? url} name={name} size={88} />
        <div>
          <button
            type="button"
            className="button secondary"
            aria-describedby={described}
            // Busy rather than disabled while uploading: a disabled button would drop the focus.
            aria-busy={pending !== null}
            onPointerEnter={preload}
            onFocus={preload}
            onClick={() => {
              if (pending === null) input.current?.click();
            }}
          >
            {pending !== null ? t('avatar.uploading') : t('avatar.change')}
          </button>
          <input
            ref={input}
            type="file"
            accept={AVATAR.types.join(',')}
            hidden
            aria-label={t('avatar.change')}
            onChange={(event) => void choose(event)}
          />
          <p id={hintId} className="hint">
            {t('avatar.hint')}
          </p>
        </div>
      </div>
      {failure ? (
        <div className="avatar-field-failure">
          <p id={errorId} className="error-text" role="alert">
            {failure.message}
          </p>
          {failure.retry ? (
            <button type="button" className="button ghost" onClick={() => void upload(failure.retry as string)}>
              {t('avatar.retry')}
            </button>
          ) : null}
        </div>
      ) : null}
      <Notice message={notice} />
      {children ? (
        <details className="avatar-field-url">
          <summary>{t('avatar.useUrl')}</summary>
          {children}
        </details>
      ) : null}
      {picture && CropDialog ? (
        <CropDialog
          picture={picture}
          onCancel={() => setPicture(null)}
          onCropped={(image) => {
            setPicture(null);
            void upload(image);
          }}
        />
      ) : null}
    </fieldset>
  );
};
