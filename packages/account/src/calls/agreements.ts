import {
  type Agreement,
  listAgreementsRoute,
  listAgreementsToSignRoute,
  listLatestProtocolsRoute,
  signAgreementsRoute,
} from '@edupass/protocol';
import { anonymous, type Call, defineCall, type PlainCall } from '../call.ts';
import { array, nothing } from '../shapes.ts';
import { byRules } from '../validate.ts';
import { withToken } from '../with-token.ts';

/** The current agreements. */
export const listAgreements: PlainCall<Agreement[]> = /* @__PURE__ */ defineCall(anonymous, listAgreementsRoute, array);

/** Agreements the signed-in user (or, signed out, any visitor) has yet to sign. */
export const listAgreementsToSign: PlainCall<Agreement[]> = /* @__PURE__ */ defineCall(
  withToken,
  listAgreementsToSignRoute,
  array,
);

/** Signs agreements for the signed-in user. */
export const signAgreements: Call<{ agreement_ids: readonly number[] }, void> = /* @__PURE__ */ defineCall(
  withToken,
  signAgreementsRoute,
  nothing,
  byRules,
);

/** The latest agreement of each code. */
export const listLatestProtocols: Call<{ codeList: readonly string[] }, Agreement[]> = /* @__PURE__ */ defineCall(
  anonymous,
  listLatestProtocolsRoute,
  array,
);
