/**
 * The account centre's profile: its changes, the grades to choose from, and the privacy summary. Apart
 * from `getProfile` (profile.ts), which every page's session calls, so a bundle's first chunk holds
 * only that one.
 */
import {
  type GradeStage,
  getGradeListRoute,
  getPrivacyRoute,
  type Privacy,
  type ProfileField,
  type UserInfo,
  updateProfileRoute,
} from '@edupass/protocol';
import { anonymous, type Call, defineCall, type PlainCall } from '../call.ts';
import { array, nothing, object } from '../shapes.ts';
import { profileFields } from '../validate.ts';
import { withToken } from '../with-token.ts';

/** The settable profile fields (spec §3); only these may be sent. */
export type ProfileInput = Partial<Pick<UserInfo, Exclude<ProfileField, 'sex' | 'birthday' | 'grade'>>> & {
  sex?: 0 | 1;
  /** Unix seconds. */
  birthday?: number;
  grade?: number;
};

const update = /* @__PURE__ */ defineCall<ProfileInput, void>(withToken, updateProfileRoute, nothing, profileFields);

/** Updates the given profile fields, each validated first (spec §5 profile check); the session's user follows. */
export const updateProfile: Call<ProfileInput, void> = async (client, profile) => {
  await update(client, profile);
  const { user: current } = client.session.get();
  if (current) client.session.update({ user: { ...current, ...profile } });
};

/** Username, e-mail, phone (masked) and whether a password is set. */
export const getPrivacy: PlainCall<Privacy> = /* @__PURE__ */ defineCall(withToken, getPrivacyRoute, object);

/** Grades by school stage. */
export const getGradeList: PlainCall<GradeStage[]> = /* @__PURE__ */ defineCall(anonymous, getGradeListRoute, array);
