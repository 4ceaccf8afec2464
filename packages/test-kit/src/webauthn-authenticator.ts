/**
 * A software passkey: a WebAuthn authenticator speaking the real formats (a `none` attestation with a
 * COSE ES256 key, assertions signed over authenticator data and the client data hash), so server
 * tests can register and use passkeys over HTTP and choose the flags a device sets — user presence,
 * and user verification (a PIN or biometrics) or its absence.
 */
import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';

const b64url = (bytes: Buffer) => bytes.toString('base64url');
const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest();

/** CBOR byte-string header for a length below 65 536. */
const cborBytes = (bytes: Buffer) =>
  Buffer.concat([
    bytes.length < 24
      ? Buffer.from([0x40 + bytes.length])
      : bytes.length < 256
        ? Buffer.from([0x58, bytes.length])
        : Buffer.from([0x59, bytes.length >> 8, bytes.length & 0xff]),
    bytes,
  ]);
const cborText = (text: string) => Buffer.concat([Buffer.from([0x60 + text.length]), Buffer.from(text)]);

const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

export interface SoftPasskey {
  id: string;
  /** The answer to registration options (`navigator.credentials.create`). */
  register(options: { challenge: string }, uv?: boolean): unknown;
  /** The answer to assertion options (`navigator.credentials.get`); `uv: false` leaves the UV flag unset. */
  assert(options: { challenge: string }, uv?: boolean): unknown;
}

/** A new passkey for the relying party `rpId`, answering for pages of `origin`. */
export const softPasskey = (rpId: string, origin: string): SoftPasskey => {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const credentialId = randomBytes(16);
  const id = b64url(credentialId);
  let counter = 0;
  const cosePublicKey = (key: KeyObject) => {
    const jwk = key.export({ format: 'jwk' });
    const x = Buffer.from(jwk.x ?? '', 'base64url');
    const y = Buffer.from(jwk.y ?? '', 'base64url');
    // {1: 2 (EC2), 3: -7 (ES256), -1: 1 (P-256), -2: x, -3: y}
    return Buffer.concat([
      Buffer.from([0xa5, 0x01, 0x02, 0x03, 0x26, 0x20, 0x01, 0x21]),
      cborBytes(x),
      Buffer.from([0x22]),
      cborBytes(y),
    ]);
  };
  const authData = (flags: number, attested?: Buffer) => {
    counter += 1;
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), count, attested ?? Buffer.alloc(0)]);
  };
  const clientData = (type: string, challenge: string) =>
    Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  return {
    id,
    register(options, uv = true) {
      const length = Buffer.from([credentialId.length >> 8, credentialId.length & 0xff]);
      const attested = Buffer.concat([Buffer.alloc(16), length, credentialId, cosePublicKey(publicKey)]);
      const data = authData(UP | AT | (uv ? UV : 0), attested);
      const attestation = Buffer.concat([
        Buffer.from([0xa3]),
        cborText('fmt'),
        cborText('none'),
        cborText('attStmt'),
        Buffer.from([0xa0]),
        cborText('authData'),
        cborBytes(data),
      ]);
      return {
        id,
        rawId: id,
        type: 'public-key',
        response: {
          clientDataJSON: b64url(clientData('webauthn.create', options.challenge)),
          attestationObject: b64url(attestation),
          transports: ['internal'],
        },
        clientExtensionResults: {},
      };
    },
    assert(options, uv = true) {
      const data = authData(UP | (uv ? UV : 0));
      const client = clientData('webauthn.get', options.challenge);
      const signature = sign('sha256', Buffer.concat([data, sha256(client)]), privateKey);
      return {
        id,
        rawId: id,
        type: 'public-key',
        response: {
          clientDataJSON: b64url(client),
          authenticatorData: b64url(data),
          signature: b64url(signature),
        },
        clientExtensionResults: {},
      };
    },
  };
};
