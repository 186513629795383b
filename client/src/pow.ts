/** The proof-of-work captcha solved with WebCrypto (browsers and Node 20's `globalThis.crypto`), as the plugin checks it. */
import type { z } from 'zod/v4';
import type { powChallenge } from '../../server/src/features/accounts/auth.shapes';

/**
 * What `GET /api/cms-plugin-bag/auth/captcha-pow` answers: `difficulty` is the leading zero bits the SHA-256 of
 * `${challenge}:${nonce}` must have, `expiresIn` the seconds the challenge stays valid.
 */
export type PowChallenge = z.infer<typeof powChallenge>;

export interface SolvePowOptions {
  /** Stops the search (the promise rejects with the signal's reason), e.g. when the user leaves the form. */
  signal?: AbortSignal;
}

/**
 * Digests in flight at once: each `crypto.subtle.digest` call costs far more than its hash, and 256 concurrent
 * calls about double the rate of one at a time (docs/accounts.md#captcha-rules).
 */
const BATCH = 256;
/** The most the plugin's configuration allows. */
const MAX_DIFFICULTY = 32;

const leadingZeroBits = (digest: ArrayBuffer): number => {
  let bits = 0;
  for (const byte of new Uint8Array(digest)) {
    if (byte !== 0) return bits + Math.clz32(byte) - 24;
    bits += 8;
  }
  return bits;
};

/**
 * Finds the smallest decimal nonce whose SHA-256 with the challenge (`${challenge}:${nonce}`) starts with
 * `difficulty` zero bits; returns `{ key, code }` to send with login or register.
 */
export async function solvePow(
  { key, challenge, difficulty, algorithm }: PowChallenge,
  { signal }: SolvePowOptions = {}
): Promise<{ key: string; code: string }> {
  if (algorithm !== 'SHA-256') throw new Error(`Unsupported proof-of-work algorithm: ${String(algorithm)}`);
  if (!Number.isInteger(difficulty) || difficulty < 0 || difficulty > MAX_DIFFICULTY) {
    throw new RangeError(`Proof-of-work difficulty must be an integer from 0 to ${MAX_DIFFICULTY}`);
  }
  const encoder = new TextEncoder();
  for (let start = 0; ; start += BATCH) {
    signal?.throwIfAborted();
    const digests = await Promise.all(
      Array.from({ length: BATCH }, (_, i) => globalThis.crypto.subtle.digest('SHA-256', encoder.encode(`${challenge}:${start + i}`)))
    );
    const found = digests.findIndex((digest) => leadingZeroBits(digest) >= difficulty);
    if (found >= 0) return { key, code: String(start + found) };
  }
}
