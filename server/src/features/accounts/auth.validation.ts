/** What the account shapes cannot say: the host's allowed register fields, and the refresh token's contract messages. */
import { errors } from '@strapi/utils';
import { REFRESH_ERRORS } from '../../platform/auth';
import { onFirstUse } from '../../platform/lazy-require';
import { captchaAnswer, loginBody, registerFields, sendCodeBody, type CaptchaInput, type LoginBody, type RegisterBody, type SendCodeBody } from './auth.shapes';
import { BODY_NOT_OBJECT } from '../../platform/shapes/fields';
import { isRecord } from '../../platform/is-record';
import { parseShape } from '../../platform/shapes/parse';

/** Only the named own fields: nothing else of the body (`__proto__` included) goes further. */
const pick = (body: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> => {
  const picked: Record<string, unknown> = {};
  for (const key of keys) if (Object.prototype.hasOwnProperty.call(body, key)) picked[key] = body[key];
  return picked;
};

/** The plugin's own register fields' names (read on first use, like the shape: platform/shapes/lazy.ts). */
const registerKeys = onFirstUse(() => Object.keys(registerFields.shape));

export const validateLoginBody = (body: unknown): LoginBody => parseShape(loginBody, body);

export const validateSendCodeBody = (body: unknown): SendCodeBody => parseShape(sendCodeBody, body);

/**
 * Register: the plugin's fields plus the host's `register.allowedFields` (users-permissions config); any other
 * key is refused, as the host's own register does.
 */
export const validateRegisterBody = (body: unknown, allowedFields: readonly string[]): RegisterBody => {
  if (!isRecord(body)) throw new errors.ValidationError(BODY_NOT_OBJECT);
  const allowed = new Set<string>([...registerKeys(), ...allowedFields]);
  const invalid = Object.keys(body).filter((key) => !allowed.has(key));
  if (invalid.length > 0) throw new errors.ValidationError(`Invalid parameters: ${invalid.join(', ')}`);
  const fields = parseShape(registerFields, body);
  return { ...fields, extra: pick(body, allowedFields.filter((key) => !registerKeys().includes(key))) };
};

/** `{ refreshToken }`: absent or empty is `Missing refresh token`; any other non-string is not a token of ours. */
export const validateRefreshTokenBody = (body: unknown): string => {
  const token = isRecord(body) && Object.prototype.hasOwnProperty.call(body, 'refreshToken') ? body.refreshToken : undefined;
  if (token === undefined || token === null || token === '') throw new errors.ValidationError(REFRESH_ERRORS.missing);
  if (typeof token !== 'string') throw new errors.ValidationError(REFRESH_ERRORS.invalid);
  return token;
};

/** `key` and `code` of a body the plugin does not otherwise validate (the host's own auth routes). */
export const validateCaptchaFields = (body: Record<string, unknown>): CaptchaInput => parseShape(captchaAnswer, body);
