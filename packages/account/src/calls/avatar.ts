import { uploadAvatarRoute } from '@edupass/protocol';
import { type Call, defineCall } from '../call.ts';
import { object } from '../shapes.ts';
import { withToken } from '../with-token.ts';

const upload = /* @__PURE__ */ defineCall<{ image: string }, { avatar_url: string }>(
  withToken,
  uploadAvatarRoute,
  object,
);

/**
 * Sets the signed-in user's profile picture from `image`, a data URL of a PNG, JPEG, WebP or GIF of at most
 * AVATAR.maxBytes (crop it to a square first: the server keeps a 256×256 WebP). Answers the stored
 * picture's URL, which the session's user takes as its avatar_url. Not a picture: rejects with INVALID_REQUEST.
 */
export const uploadAvatar: Call<{ image: string }, { avatar_url: string }> = async (client, input) => {
  const answer = await upload(client, input);
  const { user } = client.session.get();
  if (user) client.session.update({ user: { ...user, avatar_url: answer.avatar_url } });
  return answer;
};
