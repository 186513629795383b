/** Shapes of `/api/cms-plugin-bag/auth/…`: captchas, e-mail codes, register, login, refresh, logout, me. */
import { z } from 'zod/v4';

/** Captcha answer: `key` + `code` for an image or proof-of-work captcha, `code` alone for an e-mailed code. */
export const captchaAnswer = z.object({ key: z.string().optional(), code: z.string().optional() });

/** A plain `password` or `encryptedPassword` (Base64 RSA-OAEP/SHA-256 ciphertext made with the public key). */
const passwordFields = { password: z.string().optional(), encryptedPassword: z.string().optional() };

export const captchaImage = z.object({ key: z.string(), svg: z.string().describe('`<svg …>` markup') });

export const powChallenge = z.object({
  key: z.string(),
  challenge: z.string(),
  /** Leading zero bits the SHA-256 of `${challenge}:${nonce}` must have. */
  difficulty: z.number().int(),
  algorithm: z.literal('SHA-256'),
  /** Seconds the challenge stays valid. */
  expiresIn: z.number().int(),
});

export const sendCodeBody = z.object({ identifier: z.string().describe('the e-mail address the code goes to') });
/** The code itself is only in the e-mail; `expiresIn` is in seconds. */
export const sendCodeResponse = z.object({ message: z.string(), expiresIn: z.number().int() });

export const loginBody = z.object({ identifier: z.string(), ...passwordFields, ...captchaAnswer.shape });

/** The plugin's fields plus the host's `register.allowedFields` (users-permissions config). */
export const registerBody = z
  .object({ username: z.string(), email: z.string(), ...passwordFields, ...captchaAnswer.shape })
  .catchall(z.unknown());

/** The user as `/api/users/me` shows it (custom fields included); never the password or the reset tokens. */
export const user = z
  .object({
    id: z.number().int(),
    documentId: z.string(),
    username: z.string(),
    email: z.string(),
    provider: z.string().optional(),
    confirmed: z.boolean().optional(),
    blocked: z.boolean().optional(),
    createdAt: z.string().optional(),
    updatedAt: z.string().optional(),
  })
  .catchall(z.unknown());

export const authResponse = z.object({ jwt: z.string(), refreshToken: z.string(), user });

export const refreshTokenBody = z.object({ refreshToken: z.string() });
/** The refresh token is not replaced. */
export const refreshTokenResponse = z.object({ jwt: z.string() });

export const logoutResponse = z.object({ message: z.string() });
