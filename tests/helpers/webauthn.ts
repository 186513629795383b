/**
 * A software WebAuthn authenticator for HTTP tests: an ES256 key from node's crypto, `none` attestation, CBOR through
 * `@simplewebauthn/server/helpers`. It answers registration and authentication options as a browser would
 * (`PublicKeyCredential.toJSON()`), and lets a test choose the origin, the counter and the challenge, and whether it
 * verified the user (the UV flag) or only saw one present.
 */
import crypto from 'crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

const b64url = (data: Buffer | Uint8Array) => Buffer.from(data).toString('base64url');
const sha256 = (data: Buffer | string) => crypto.createHash('sha256').update(data).digest();
const u32 = (value: number) => {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32BE(value);
  return buffer;
};

export interface SoftAuthenticatorOptions {
  rpId: string;
  origin: string;
}

/** Authenticator data flags: user present, user verified, attested credential data. */
const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

export function softAuthenticator({ rpId, origin }: SoftAuthenticatorOptions) {
  const { privateKey, publicKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const credentialId = crypto.randomBytes(16);
  const jwk = publicKey.export({ format: 'jwk' }) as { x: string; y: string };
  let counter = 0;

  const clientData = (type: string, challenge: string, at = origin) =>
    Buffer.from(JSON.stringify({ type, challenge, origin: at, crossOrigin: false }));

  return {
    id: b64url(credentialId),
    get counter() {
      return counter;
    },
    set counter(value: number) {
      counter = value;
    },

    /** The answer to `navigator.credentials.create()` for these options. */
    register(options: { challenge: string }, { origin: at = origin, userVerified = true }: { origin?: string; userVerified?: boolean } = {}) {
      const coseKey = new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x, 'base64url')],
        [-3, Buffer.from(jwk.y, 'base64url')],
      ]);
      const idLength = Buffer.alloc(2);
      idLength.writeUInt16BE(credentialId.length);
      const authData = Buffer.concat([
        sha256(rpId),
        Buffer.from([UP | AT | (userVerified ? UV : 0)]),
        u32(counter),
        Buffer.alloc(16), // AAGUID
        idLength,
        credentialId,
        Buffer.from(isoCBOR.encode(coseKey)),
      ]);
      const attestationObject = isoCBOR.encode(new Map<string, unknown>([['fmt', 'none'], ['attStmt', new Map()], ['authData', authData]]) as never);
      return {
        id: b64url(credentialId),
        rawId: b64url(credentialId),
        type: 'public-key',
        response: {
          clientDataJSON: b64url(clientData('webauthn.create', options.challenge, at)),
          attestationObject: b64url(attestationObject),
          transports: ['hybrid', 'internal'],
        },
        clientExtensionResults: {},
      };
    },

    /**
     * The answer to `navigator.credentials.get()`: the counter goes up by one unless `counter` is given;
     * `userVerified: false` is an authenticator that only saw someone present (no PIN, no biometrics).
     */
    authenticate(
      options: { challenge: string },
      { origin: at = origin, counter: fixed, userVerified = true }: { origin?: string; counter?: number; userVerified?: boolean } = {},
    ) {
      counter = fixed ?? counter + 1;
      const authData = Buffer.concat([sha256(rpId), Buffer.from([UP | (userVerified ? UV : 0)]), u32(counter)]);
      const clientDataJSON = clientData('webauthn.get', options.challenge, at);
      const signature = crypto.sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), privateKey);
      return {
        id: b64url(credentialId),
        rawId: b64url(credentialId),
        type: 'public-key',
        response: {
          clientDataJSON: b64url(clientDataJSON),
          authenticatorData: b64url(authData),
          signature: b64url(signature),
        },
        clientExtensionResults: {},
      };
    },
  };
}
