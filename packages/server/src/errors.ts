/** The server's one error type: a catalogue code, raised where the rule is broken. */
import {
  ClientCode,
  type DeletionScheduled,
  type RuleFailure,
  SERVER_ERRORS,
  type SecondFactorChallenge,
  type SecondFactorMethod,
  type ServerCode,
  type WireError,
} from '@edupass/protocol';

export class ApiError extends Error {
  constructor(
    readonly code: ServerCode,
    message?: string,
    /** Overrides the catalogue's client number, e.g. with the failed validation rule's. */
    readonly clientNumber?: number,
    /** Overrides the catalogue's HTTP status where HTTP names the problem more precisely (413, 414, 415, 408, 431). */
    readonly httpStatus?: number,
  ) {
    super(message ?? SERVER_ERRORS[code].message);
    this.name = 'ApiError';
  }

  get status(): number {
    return this.httpStatus ?? SERVER_ERRORS[this.code].status;
  }

  toWire(logUuid: string): WireError {
    const spec = SERVER_ERRORS[this.code];
    return {
      error_code: this.code,
      error_message: this.message,
      error_number: this.clientNumber ?? ClientCode[spec.client],
      error_category: spec.category,
      log_uuid: logUuid,
    };
  }
}

/** E_10: the server cannot take this now; the answer carries `Retry-After` with the seconds to wait. */
export class RetryLater extends ApiError {
  constructor(
    readonly retryAfterSeconds: number,
    message?: string,
  ) {
    super('E_10', message);
  }
}

/** A refusal that lifts by itself: the body says in how many seconds (`retry_after`), as does `Retry-After`. */
export class RefusedForNow extends ApiError {
  readonly retryAfterSeconds: number;
  constructor(code: ServerCode, retryAfterSeconds: number, message?: string) {
    super(code, message);
    this.retryAfterSeconds = Math.max(1, Math.ceil(retryAfterSeconds));
  }

  override toWire(logUuid: string): WireError {
    return { ...super.toWire(logUuid), retry_after: this.retryAfterSeconds };
  }
}

export const fail = (code: ServerCode, message?: string): never => {
  throw new ApiError(code, message);
};

/** A failed validation rule, answered as E_1 carrying the rule's client number and exact message. */
export const ruleError = (failure: RuleFailure) => new ApiError('E_1', failure.message, failure.code);

export const invalidRequest = (message: string) => new ApiError('E_1', message);

/**
 * E_11: the first step of a sign-in passed and a second factor is due. The answer carries the
 * challenge that finishes it and the factors the account has (fields added to the catalogue shape).
 */
export class SecondFactorRequired extends ApiError {
  constructor(
    readonly challenge: string,
    readonly methods: readonly SecondFactorMethod[],
  ) {
    super('E_11');
  }

  override toWire(logUuid: string): WireError & SecondFactorChallenge {
    return { ...super.toWire(logUuid), mfa_challenge: this.challenge, mfa_methods: [...this.methods] };
  }
}

/**
 * E_16: the sign-in's steps passed for an account waiting to be deleted. The answer carries when it will
 * be erased and the ticket that keeps it (and finishes this sign-in).
 */
export class DeletionPending extends ApiError {
  constructor(
    readonly ticket: string,
    readonly eraseAt: number,
  ) {
    super('E_16');
  }

  override toWire(logUuid: string): WireError & DeletionScheduled {
    return { ...super.toWire(logUuid), deletion_ticket: this.ticket, erase_at: this.eraseAt };
  }
}
