/** Why a request or a delivery was refused; `status` is what a middleware answers with. */

export type EduPassAuthErrorCode =
  /** No `Authorization: Bearer …` header. */
  | 'token_missing'
  /** Not a token EduPass signed for this site: bad signature, unknown key, wrong issuer or audience. */
  | 'token_invalid'
  /** Signed by EduPass but past its `exp`: the client refreshes it. */
  | 'token_expired'
  /** Valid, but introspection says its session ended or its user is blocked. */
  | 'token_inactive'
  /** The JWKS or the introspection endpoint could not be reached. */
  | 'edupass_unavailable';

export class EduPassAuthError extends Error {
  override readonly name = 'EduPassAuthError';
  readonly code: EduPassAuthErrorCode;
  /** 401 for the caller's token, 503 when EduPass could not be asked. */
  readonly status: 401 | 503;

  constructor(code: EduPassAuthErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.status = code === 'edupass_unavailable' ? 503 : 401;
  }
}

export const isEduPassAuthError = (error: unknown): error is EduPassAuthError => error instanceof EduPassAuthError;

export type WebhookErrorCode =
  | 'headers_missing'
  | 'timestamp_out_of_tolerance'
  | 'signature_invalid'
  | 'secret_invalid';

export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
  readonly code: WebhookErrorCode;

  constructor(code: WebhookErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}
