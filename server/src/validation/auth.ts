/** Body checks of the account endpoints: each throws the host's ValidationError with per-field details. */
import { errors, validateYupSchema, yup } from '@strapi/utils';
import { REFRESH_ERRORS, type CaptchaInput, type LoginBody, type RegisterBody } from '../domain/auth';
import { isRecord } from '../utils/is-record';

const MAX = 255;
/** Identifiers are looked up and stored as text: PostgreSQL refuses a NUL character in either (a 500). */
const text = () =>
  yup
    .string()
    .strict()
    .max(MAX)
    .test('no-nul', '${path} must not contain NUL characters', (value) => value === undefined || !value.includes('\u0000'));
// An empty key or code counts as missing (`Captcha code is required`), so no min(1) here.
const captchaFields = { key: text(), code: text() };
const passwordFields = { password: yup.string().strict().min(1).max(1024), encryptedPassword: yup.string().strict().min(1).max(4096) };

/** A JSON object body, or a ValidationError: an array or a string body has no fields to pick. */
const objectBody = (body: unknown): Record<string, unknown> => {
  if (!isRecord(body)) throw new errors.ValidationError('The request body must be a JSON object');
  return body;
};

/** Only the named own fields: nothing else of the body (`__proto__` included) goes further. */
const pick = (body: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> => {
  const picked: Record<string, unknown> = {};
  for (const key of keys) if (Object.prototype.hasOwnProperty.call(body, key)) picked[key] = body[key];
  return picked;
};

const loginSchema = yup.object({ identifier: text().min(1).required(), ...passwordFields, ...captchaFields });
const sendCodeSchema = yup.object({ identifier: text().email().required() });
const registerSchema = yup.object({
  username: text().min(1).required(),
  email: text().email().required(),
  ...passwordFields,
  ...captchaFields,
});

const REGISTER_KEYS = ['username', 'email', 'password', 'encryptedPassword', 'key', 'code'] as const;

export const validateLoginBody = async (body: unknown): Promise<LoginBody> => {
  const fields = pick(objectBody(body), ['identifier', 'password', 'encryptedPassword', 'key', 'code']);
  return (await validateYupSchema(loginSchema)(fields)) as LoginBody;
};

export const validateSendCodeBody = async (body: unknown): Promise<{ identifier: string }> => {
  const fields = pick(objectBody(body), ['identifier']);
  return (await validateYupSchema(sendCodeSchema)(fields)) as { identifier: string };
};

/**
 * Register: the plugin's fields plus the host's `register.allowedFields` (users-permissions config); any other
 * key is refused, as the host's own register does.
 */
export const validateRegisterBody = async (body: unknown, allowedFields: readonly string[]): Promise<RegisterBody> => {
  const input = objectBody(body);
  const allowed = new Set<string>([...REGISTER_KEYS, ...allowedFields]);
  const invalid = Object.keys(input).filter((key) => !allowed.has(key));
  if (invalid.length > 0) throw new errors.ValidationError(`Invalid parameters: ${invalid.join(', ')}`);
  const fields = (await validateYupSchema(registerSchema)(pick(input, REGISTER_KEYS))) as Omit<RegisterBody, 'extra'>;
  return { ...fields, extra: pick(input, allowedFields.filter((key) => !(REGISTER_KEYS as readonly string[]).includes(key))) };
};

/** `{ refreshToken }`: absent or empty is `Missing refresh token`; any other non-string is not a token of ours. */
export const validateRefreshTokenBody = (body: unknown): string => {
  const token = isRecord(body) && Object.prototype.hasOwnProperty.call(body, 'refreshToken') ? body.refreshToken : undefined;
  if (token === undefined || token === null || token === '') throw new errors.ValidationError(REFRESH_ERRORS.missing);
  if (typeof token !== 'string') throw new errors.ValidationError(REFRESH_ERRORS.invalid);
  return token;
};

const captchaSchema = yup.object(captchaFields);

/** `key` and `code` of a body the plugin does not otherwise validate (the host's own auth routes). */
export const validateCaptchaFields = async (body: Record<string, unknown>): Promise<CaptchaInput> =>
  (await validateYupSchema(captchaSchema)(pick(body, ['key', 'code']))) as CaptchaInput;
