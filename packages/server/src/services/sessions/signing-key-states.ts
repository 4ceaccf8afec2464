/**
 * Where each signing key stands at a moment, from its generation and `signs_from` alone (so every
 * process reading the same rows agrees):
 * - `signing`: the newest generation whose `signs_from` has come; it signs every new token.
 * - `next`: created, published, not yet signing (clients learn it before a token names it).
 * - `retiring`: a newer key signs now; still published until the last token it may have signed
 *   expires (`published_until`).
 * - `expired`: past that; no longer published, removed at the next rotation.
 */
import type { SigningKeyRow } from '../../store/sessions/signing-keys.ts';

export type SigningKeyState = 'next' | 'signing' | 'retiring' | 'expired';

export interface SigningKeyStatus {
  generation: number;
  kid: string;
  alg: string;
  createdAt: number;
  signsFrom: number;
  /** When a newer key took over; undefined while this one signs or waits. */
  retiredAt: number | undefined;
  /** When it leaves the JWKS; undefined while it signs or waits. */
  publishedUntil: number | undefined;
  state: SigningKeyState;
}

export const signingKeyStates = (rows: SigningKeyRow[], now: number, longestTokenMs: number): SigningKeyStatus[] => {
  const started = rows.filter((row) => row.signs_from <= now);
  const signer = started.reduce<number | undefined>(
    (top, row) => Math.max(top ?? row.generation, row.generation),
    undefined,
  );
  return rows.map((row) => {
    const takeovers = started.filter((later) => later.generation > row.generation).map((later) => later.signs_from);
    const retiredAt = takeovers.length === 0 ? undefined : Math.min(...takeovers);
    const publishedUntil = retiredAt === undefined ? undefined : retiredAt + longestTokenMs;
    const state: SigningKeyState =
      row.generation === signer
        ? 'signing'
        : publishedUntil === undefined
          ? 'next'
          : publishedUntil > now
            ? 'retiring'
            : 'expired';
    return {
      generation: row.generation,
      kid: row.kid,
      alg: row.alg,
      createdAt: row.created_at,
      signsFrom: row.signs_from,
      retiredAt,
      publishedUntil,
      state,
    };
  });
};
