/** The profile fields, each checked with the spec's rule as it is typed; only changed fields are sent. */
import { getGradeList, type ProfileInput, updateProfile } from '@edupass/account';
import { checkProfile, isDefaultNickname, isUnset, type UserInfo } from '@edupass/protocol';
import { FormError, Notice } from '@edupass/ui-kit/status.tsx';
import { useAction } from '@edupass/ui-kit/use-action.ts';
import { useLoad } from '@edupass/ui-kit/use-load.ts';
import { type FormEvent, useId, useState } from 'react';
import { useI18n } from '../../i18n/i18n.ts';
import { client } from '../../session/account.ts';
import { trackEvent } from '../../telemetry/telemetry.ts';
import { Field } from '../../ui/field.tsx';
import { shownNickname } from '../../ui/nickname.ts';
import { SlowNotice } from '../../ui/slow-notice.tsx';
import { useRuleError } from '../../ui/validation.ts';
import { AvatarField } from './avatar/avatar-field.tsx';
import { gradeName, stageName } from './grade-names.ts';

/** Unix seconds ↔ the date input's YYYY-MM-DD (UTC, so the day never shifts). */
const toDateInput = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);
const fromDateInput = (value: string) => (value ? Math.floor(Date.parse(`${value}T00:00:00Z`) / 1000) : null);

interface Draft {
  nickname: string;
  avatar_url: string;
  fullname: string;
  birthday: string;
  sex: '' | '0' | '1';
  qq: string;
  description: string;
  grade: string;
}

/** The wire says 0 for an unset sex, birthday or grade; `isUnset` tells "not set" from a value (unset-fields.ts). */
const draftOf = (user: UserInfo): Draft => ({
  // The drawn default nickname is not typed over: the field starts empty and says it (ui/nickname.ts).
  nickname: isDefaultNickname(user.nickname ?? '') ? '' : (user.nickname ?? ''),
  avatar_url: user.avatar_url ?? '',
  fullname: user.fullname ?? '',
  birthday: isUnset(user, 'birthday') ? '' : toDateInput(user.birthday),
  sex: isUnset(user, 'sex') ? '' : (String(user.sex) as '0' | '1'),
  qq: user.qq ?? '',
  description: user.description ?? '',
  grade: isUnset(user, 'grade') ? '' : String(user.grade),
});

/** The fields that differ from what the server has, in the wire's types. */
const changes = (draft: Draft, saved: Draft): ProfileInput => {
  const out: ProfileInput = {};
  if (draft.nickname !== saved.nickname) out.nickname = draft.nickname;
  if (draft.avatar_url !== saved.avatar_url) out.avatar_url = draft.avatar_url;
  if (draft.fullname !== saved.fullname) out.fullname = draft.fullname;
  if (draft.qq !== saved.qq) out.qq = draft.qq;
  if (draft.description !== saved.description) out.description = draft.description;
  if (draft.sex !== saved.sex && draft.sex !== '') out.sex = draft.sex === '1' ? 1 : 0;
  const birthday = fromDateInput(draft.birthday);
  if (draft.birthday !== saved.birthday && birthday !== null) out.birthday = birthday;
  if (draft.grade !== saved.grade && draft.grade !== '') out.grade = Number(draft.grade);
  return out;
};

export const ProfileForm = ({ user }: { user: UserInfo }) => {
  const { t } = useI18n();
  const ruleError = useRuleError();
  const action = useAction();
  const grades = useLoad(() => getGradeList(client));
  const [saved, setSaved] = useState(() => draftOf(user));
  const [draft, setDraft] = useState(saved);
  const sexName = useId();
  const gradeId = useId();
  const descriptionId = useId();

  const set = (field: keyof Draft) => (value: string) => setDraft((d) => ({ ...d, [field]: value }));
  // An uploaded picture is saved already: the form starts from it.
  const uploaded = (url: string) => {
    setSaved((s) => ({ ...s, avatar_url: url }));
    setDraft((d) => ({ ...d, avatar_url: url }));
  };
  // Judged as typed, once changed: an untouched empty field is not an error.
  const judged = (field: 'nickname' | 'fullname' | 'qq', rule: 'nickname' | 'fullname' | 'qq') =>
    draft[field] !== saved[field] && draft[field] !== '' ? ruleError(rule, draft[field]) : null;
  const descriptionLength = [...draft.description].length;
  const descriptionBound = action.field('description');
  const descriptionError =
    descriptionBound.error ?? (descriptionLength > 50 ? ruleError('description', draft.description) : null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const input = changes(draft, saved);
    if (Object.keys(input).length === 0) {
      void action.run(async () => t('profile.unchanged'));
      return;
    }
    const failure = checkProfile(input as Record<string, unknown>);
    if (failure) {
      // At the field it is about (focused), or above the button when the form has no such input.
      action.fail(failure);
      return;
    }
    void action.run(async () => {
      await updateProfile(client, input);
      trackEvent('profile_saved', { fields: Object.keys(input) });
      setSaved(draft);
      return t('profile.saved');
    });
  };

  return (
    <form onSubmit={submit} noValidate className="profile-form">
      <Field
        label={t('profile.nickname')}
        hint={
          isDefaultNickname(user.nickname ?? '') && saved.nickname === ''
            ? t('profile.nicknameDefaultHint', { name: shownNickname(user.nickname ?? '', t) })
            : t('profile.nicknameHint')
        }
        placeholder={saved.nickname === '' ? shownNickname(user.nickname ?? '', t) : undefined}
        value={draft.nickname}
        onValue={set('nickname')}
        error={judged('nickname', 'nickname')}
        bind={action.field('nickname')}
        autoComplete="nickname"
        maxLength={40}
      />
      <AvatarField
        url={draft.avatar_url}
        name={saved.nickname || user.nickname || saved.fullname}
        onUploaded={uploaded}
      >
        <Field
          label={t('profile.avatarUrl')}
          hint={t('avatar.urlHint')}
          value={draft.avatar_url}
          onValue={set('avatar_url')}
          bind={action.field('avatar_url')}
          type="url"
          inputMode="url"
          autoComplete="photo"
        />
      </AvatarField>
      <Field
        label={t('profile.fullname')}
        hint={t('profile.fullnameHint')}
        value={draft.fullname}
        onValue={set('fullname')}
        error={judged('fullname', 'fullname')}
        bind={action.field('fullname')}
        autoComplete="name"
        maxLength={40}
      />
      <Field
        label={t('profile.birthday')}
        value={draft.birthday}
        onValue={set('birthday')}
        bind={action.field('birthday')}
        type="date"
        max={new Date().toISOString().slice(0, 10)}
        autoComplete="bday"
      />
      <fieldset className="field">
        <legend>{t('profile.sex')}</legend>
        <div className="radios">
          {(['1', '0'] as const).map((value) => (
            <label key={value}>
              <input
                type="radio"
                name={sexName}
                value={value}
                checked={draft.sex === value}
                onChange={() => set('sex')(value)}
              />{' '}
              {value === '1' ? t('profile.sexMale') : t('profile.sexFemale')}
            </label>
          ))}
        </div>
      </fieldset>
      <Field
        label={t('profile.qq')}
        hint={t('profile.qqHint')}
        value={draft.qq}
        onValue={set('qq')}
        error={judged('qq', 'qq')}
        bind={action.field('qq')}
        inputMode="numeric"
        maxLength={20}
      />
      <div className={`field${descriptionError ? ' invalid' : ''}`}>
        <label htmlFor={descriptionId}>{t('profile.description')}</label>
        <textarea
          id={descriptionId}
          value={draft.description}
          onChange={(event) => {
            descriptionBound.onInput();
            set('description')(event.target.value);
          }}
          ref={descriptionBound.ref}
          rows={3}
          aria-invalid={descriptionError ? true : undefined}
          aria-describedby={`${descriptionId}-count${descriptionError ? ` ${descriptionId}-error` : ''}`}
        />
        <p id={`${descriptionId}-count`} className="hint">
          {t('profile.descriptionCount', { n: descriptionLength })}
        </p>
        {descriptionError ? (
          <p id={`${descriptionId}-error`} className="error-text">
            {descriptionError}
          </p>
        ) : null}
      </div>
      <div className="field">
        <label htmlFor={gradeId}>{t('profile.grade')}</label>
        <select
          id={gradeId}
          value={draft.grade}
          onChange={(event) => set('grade')(event.target.value)}
          ref={action.field('grade').ref}
        >
          <option value="">{t('profile.gradeNone')}</option>
          {(grades.data ?? []).map((stage) => (
            <optgroup key={stage.stage} label={stageName(t, stage)}>
              {stage.gradeList.map((grade) => (
                <option key={grade.grade} value={String(grade.grade)}>
                  {gradeName(t, grade.grade, grade.desc)}
                </option>
              ))}
            </optgroup>
          ))}
          {draft.grade !== '' && !grades.data ? (
            <option value={draft.grade}>{gradeName(t, Number(draft.grade), user.grade_desc)}</option>
          ) : null}
        </select>
      </div>
      <FormError message={action.error} onRetry={action.retry} />
      <Notice message={action.notice} />
      <button type="submit" className="button primary" aria-busy={action.busy}>
        {action.busy ? t('form.working') : t('profile.save')}
      </button>
      <SlowNotice busy={action.busy} />
    </form>
  );
};
