/**
 * Captchas looked up by a `key`: image captchas and proof-of-work challenges. The image text is drawn by svg-captcha
 * from CSPRNG characters and kept only as a keyed hash with its expiry. A proof-of-work challenge is itself a keyed
 * hash of its key (so nothing but the key and a hash of its difficulty is stored) and is solved by a nonce whose
 * SHA-256 with the challenge starts with `difficulty` zero bits. Either is consumed by the first attempt, right or
 * wrong: the row is deleted before the answer is checked, and only the request whose DELETE removed it may check,
 * so two concurrent uses give one success.
 */
import type { Core } from '@strapi/strapi';
import type { CaptchaType, PluginConfig } from '../../platform/config/schema';
import { getService } from '../../platform/get-service';
import { lazyRequire } from '../../platform/lazy-require';
import { sameHash, secretHash, sha256 } from '../../platform/secret-hash';
import { codeOfKinds, createCode, deleteExpiredCodes, takeCode } from './codes.data';

/** Letters and digits without the ambiguous 0 o O 1 i l I. */
export const CAPTCHA_CHARACTERS = 'abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';

type Render = (text: string, options?: { noise?: number; color?: boolean }) => string;
// svg-captcha's module is itself the function drawing a given text; its typings only declare `create`. Loaded on
// the first image drawn (its fonts are megabytes).
const render = lazyRequire<Render>('svg-captcha');

/** The kinds of captcha the plugin offers; a login or registration accepts some of them. */
export type CaptchaKind = 'image' | 'pow' | 'email';
type KeyedKind = Exclude<CaptchaKind, 'email'>;

interface CaptchaRow {
  id: number;
  kind: KeyedKind;
  secretHash: string;
  expiresAt: string | number;
}

/** The kinds a configured captcha `type` accepts. */
export const KINDS_OF_TYPE: Record<CaptchaType, readonly CaptchaKind[]> = {
  image: ['image'],
  pow: ['pow'],
  email: ['email'],
  any: ['image', 'pow', 'email'],
};

/** The kinds answered with a `key` among `kinds`. */
const keyedKinds = (kinds: readonly CaptchaKind[]): KeyedKind[] => kinds.filter((kind): kind is KeyedKind => kind !== 'email');

/** Whether a captcha of `kinds` is answered with a key: always without `email` among them, else when a key was sent. */
export const answeredWithKey = (kinds: readonly CaptchaKind[], key: string | undefined): boolean =>
  keyedKinds(kinds).length > 0 && (!kinds.includes('email') || key !== undefined);

/** A decimal nonce: 1 to 20 digits, enough for any search a client can run. */
const NONCE_PATTERN = /^\d{1,20}$/;

/** True when the hex digest starts with `bits` zero bits. */
const hasLeadingZeroBits = (hex: string, bits: number): boolean => {
  const nibbles = bits >> 2;
  if (!hex.startsWith('0'.repeat(nibbles))) return false;
  const rest = bits & 3;
  return rest === 0 || parseInt(hex[nibbles], 16) < 1 << (4 - rest);
};

const captcha = ({ strapi }: { strapi: Core.Strapi }) => {
  /** The challenge of a proof-of-work key: derived, never stored, unknown without the host's jwtSecret. */
  const powChallengeOf = (key: string) => secretHash(strapi, 'pow-challenge', key);
  /** What a proof-of-work row stores: binds the difficulty it was issued with to its key. */
  const powHashOf = (key: string, difficulty: number) => secretHash(strapi, 'pow', key, String(difficulty));

  /** Whether `code` answers the row of `key`; the row is already consumed. */
  const answers = (row: CaptchaRow, key: string, code: string, config: PluginConfig): boolean => {
    if (row.kind === 'image') return sameHash(row.secretHash, secretHash(strapi, 'image', key, code.toLowerCase()));
    // Checked against the configured difficulty: a challenge issued under another one is refused, never weakened.
    const { difficulty } = config.captcha.pow;
    if (!NONCE_PATTERN.test(code) || !sameHash(row.secretHash, powHashOf(key, difficulty))) return false;
    return hasLeadingZeroBits(sha256(`${powChallengeOf(key)}:${code}`), difficulty);
  };

  const store = async (kind: KeyedKind, key: string, hash: string, expiresIn: number) => {
    await createCode(strapi, { kind, lookup: key, secretHash: hash, attempts: 0, expiresAt: getService(strapi, 'clock').now() + expiresIn * 1000 });
    await getService(strapi, 'captcha').purgeExpired();
  };

  const newKey = () => getService(strapi, 'clock').randomBytes(16).toString('hex');

  return {
    /** `size` characters from the CSPRNG (a seam: tests read the text here). */
    generateText(size: number): string {
      const clock = getService(strapi, 'clock');
      return Array.from({ length: size }, () => CAPTCHA_CHARACTERS[clock.randomInt(0, CAPTCHA_CHARACTERS.length)]).join('');
    },

    async createImage(config: PluginConfig): Promise<{ key: string; svg: string }> {
      const text = getService(strapi, 'captcha').generateText(config.captcha.image.size);
      const key = newKey();
      await store('image', key, secretHash(strapi, 'image', key, text.toLowerCase()), config.captcha.image.expiresIn);
      return { key, svg: render()(text, { noise: 2, color: true }) };
    },

    /** `expiresIn` in seconds; the client's `PowChallenge` type describes the answer. */
    async createPow(config: PluginConfig) {
      const { difficulty, expiresIn } = config.captcha.pow;
      const key = newKey();
      await store('pow', key, powHashOf(key, difficulty), expiresIn);
      return { key, challenge: powChallengeOf(key), difficulty, algorithm: 'SHA-256' as const, expiresIn };
    },

    /**
     * True when `code` answers captcha `key` of one of `kinds`: the image text (case-insensitive) or a proof-of-work
     * nonce. The captcha is gone either way.
     */
    async verify(kinds: readonly CaptchaKind[], key: string, code: string, config: PluginConfig): Promise<boolean> {
      const row = (await codeOfKinds(strapi, keyedKinds(kinds), key)) as CaptchaRow | null;
      if (!row) return false;
      if (!(await takeCode(strapi, row.id))) return false;
      if (Number(row.expiresAt) <= getService(strapi, 'clock').now()) return false;
      return answers(row, key, code, config);
    },

    /** Deletes captchas and e-mail codes past their expiry. */
    async purgeExpired(): Promise<number> {
      return deleteExpiredCodes(strapi, getService(strapi, 'clock').now());
    },
  };
};

export type CaptchaService = ReturnType<typeof captcha>;
export default captcha;
