/** Shapes of `/api/cms-plugin-bag/auth/…`: captchas, e-mail codes, register, login, refresh, logout, me. */
import { z } from 'zod/v4';
import type { Core } from '@strapi/strapi';
import { lazyShape } from '../../platform/shapes/lazy';
import { REFRESH_ERRORS } from '../../platform/auth';
import { isRecord } from '../../platform/is-record';
import { declareRequest } from '../../platform/request-check';
import { jsonBody } from '../../platform/route-types';
import { BODY_NOT_OBJECT, REQUIRED, atLeast, atMost, email, required, string, text } from '../../platform/shapes/fields';

/** A body of named fields; only those are read, anything else in it is ignored. */
export const body = <T extends z.ZodRawShape>(fields: T) => z.object(fields, { error: BODY_NOT_OBJECT });

/**
 * Captcha answer: `key` + `code` for an image or proof-of-work captcha, `code` alone for an e-mailed code. An empty
 * key or code counts as missing (`Captcha code is required`, from the captcha check), so no minimum length here.
 */
export const captchaAnswer = lazyShape(() => body({ key: text().optional(), code: text().optional() }));

const secret = (max: number) => string().min(1, atLeast(1)).max(max, atMost(max)).optional();

/** A plain `password` or `encryptedPassword` (Base64 RSA-OAEP/SHA-256 ciphertext made with the public key). */
export const passwordFields = lazyShape(() => ({ password: secret(1024), encryptedPassword: secret(4096) }));

/** Looked up as given; present and not empty. */
export const requiredText = () => text().min(1, atLeast(1)).refine(required, REQUIRED);

export const captchaImage = lazyShape(() => z.object({ key: z.string(), svg: z.string().describe('`<svg …>` markup') }));

/** Which captchas the login and the registration take now (docs/accounts.md#captcha-rules); `[]`: none asked. */
export const captchaKinds = lazyShape(() => {
  const kinds = z.array(z.enum(['image', 'pow', 'email'])).describe('Any one of these kinds is accepted; empty: no captcha.');
  return z.object({ login: kinds, register: kinds });
});

export const powChallenge = lazyShape(() => z.object({
  key: z.string(),
  challenge: z.string(),
  /** Leading zero bits the SHA-256 of `${challenge}:${nonce}` must have. */
  difficulty: z.number().int(),
  algorithm: z.literal('SHA-256'),
  /** Seconds the challenge stays valid. */
  expiresIn: z.number().int(),
}));

/**
 * What an e-mailed code is for, named in its mail: each is accepted only by its own route. A code sent without one
 * serves registration and the login captcha, and nothing else.
 */
export const CODE_PURPOSES = ['register', 'login', 'reset', 'login-code', 'email-change', 'delete', 'add-passkey'] as const;
export type CodePurpose = (typeof CODE_PURPOSES)[number];
export const codePurpose = lazyShape(() => z.enum(CODE_PURPOSES, { error: `must be one of ${CODE_PURPOSES.join(', ')}` }));

export const sendCodeBody = lazyShape(() => body({
  identifier: email().describe('the e-mail address the code goes to'),
  purpose: codePurpose.optional().describe('the action the code is for; without one it serves registration and the login captcha'),
}));
/** The code itself is only in the e-mail; `expiresIn` is in seconds. */
export const sendCodeResponse = lazyShape(() => z.object({ message: z.string(), expiresIn: z.number().int() }));

export const loginBody = lazyShape(() => body({ identifier: requiredText(), ...passwordFields, ...captchaAnswer.shape }));

/** The plugin's own register fields. */
export const registerFields = lazyShape(() => body({ username: requiredText(), email: email(), ...passwordFields, ...captchaAnswer.shape }));

/** The plugin's fields plus the host's `register.allowedFields` (users-permissions config). */
export const registerBody = lazyShape(() => registerFields.catchall(z.unknown()));

/** The user as `/api/users/me` shows it (custom fields included); never the password or the reset tokens. */
export const user = lazyShape(() => z
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
  .catchall(z.unknown()));

export const authResponse = lazyShape(() => z.object({ jwt: z.string(), refreshToken: z.string(), user }));

export const refreshTokenBody = lazyShape(() => z.object({ refreshToken: z.string() }));
/** The refresh token is not replaced. */
export const refreshTokenResponse = lazyShape(() => z.object({ jwt: z.string() }));

export const logoutResponse = lazyShape(() => z.object({ message: z.string() }));

const own = (body: Record<string, unknown>, keys: readonly string[]) =>
  Object.fromEntries(keys.filter((key) => Object.prototype.hasOwnProperty.call(body, key)).map((key) => [key, body[key]]));

/**
 * Register as checked: the plugin's fields plus the host's `register.allowedFields` (users-permissions config, in
 * `extra`); any other key is refused, as the host's own register does.
 */
const registerBodyFor = (allowedFields: readonly string[]) => {
  const pluginKeys = Object.keys(registerFields.shape);
  const extraKeys = allowedFields.filter((key) => !pluginKeys.includes(key));
  const allowed = new Set([...pluginKeys, ...allowedFields]);
  return z
    .unknown()
    .transform((body, ctx) => {
      if (!isRecord(body)) ctx.addIssue({ code: 'custom', message: BODY_NOT_OBJECT, input: body });
      else {
        const invalid = Object.keys(body).filter((key) => !allowed.has(key));
        if (invalid.length === 0) return body;
        ctx.addIssue({ code: 'custom', message: `Invalid parameters: ${invalid.join(', ')}`, input: body });
      }
      return z.NEVER;
    })
    .pipe(registerFields.loose())
    .transform((fields): RegisterBody => ({ ...own(fields, pluginKeys), extra: own(fields, extraKeys) }) as RegisterBody);
};

/** `{ refreshToken }`: absent or empty is `Missing refresh token`; any other non-string is not a token of ours. */
const refreshTokenOf = lazyShape(() => z.unknown().transform((body, ctx) => {
  const token = isRecord(body) && Object.prototype.hasOwnProperty.call(body, 'refreshToken') ? body.refreshToken : undefined;
  if (typeof token === 'string' && token !== '') return token;
  ctx.addIssue({ code: 'custom', message: token === undefined || token === null || token === '' ? REFRESH_ERRORS.missing : REFRESH_ERRORS.invalid, input: body });
  return z.NEVER;
}));

/** The host's `register.allowedFields` (users-permissions config). */
const allowedFieldsOf = (strapi: Core.Strapi): string[] => {
  const allowed = (strapi.config.get('plugin::users-permissions.register') as { allowedFields?: unknown } | undefined)?.allowedFields;
  return Array.isArray(allowed) ? allowed.filter((field): field is string => typeof field === 'string') : [];
};

// The requests of the auth routes: every issue named (platform/shapes/parse.ts).
export const sendCodeRequest = jsonBody(sendCodeBody);
export const registerRequest = declareRequest(jsonBody(registerBody), { current: (_, strapi) => jsonBody(registerBodyFor(allowedFieldsOf(strapi))) });
export const loginRequest = jsonBody(loginBody);
export const refreshTokenRequest = declareRequest(jsonBody(refreshTokenBody), { current: () => jsonBody(refreshTokenOf) });

export type CaptchaInput = z.output<typeof captchaAnswer>;
export type PasswordInput = Pick<z.output<typeof loginBody>, 'password' | 'encryptedPassword'>;
export type LoginBody = z.output<typeof loginBody>;
export type SendCodeBody = z.output<typeof sendCodeBody>;
/** The plugin's fields and, in `extra`, the host's allowed ones. */
export type RegisterBody = z.output<typeof registerFields> & { extra: Record<string, unknown> };
