/**
 * What a sign-in or a registration must get past before its account is touched: the password as sent (clear or
 * RSA-encrypted) and the host's rules for a new one, the comparison against a stored hash (the same time for an
 * unknown account) and the captcha a login or a registration must carry, escalation included (docs/accounts.md).
 */
import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import type { PluginConfig } from '../../platform/config/schema';
import type { CaptchaInput, PasswordInput } from './auth.shapes';
import { fieldError } from '../../platform/errors';
import { getService } from '../../platform/get-service';
import { answeredWithKey, KINDS_OF_TYPE, type CaptchaKind } from './captcha';

const MAX_PASSWORD_BYTES = 72;

/** What lifts an escalation, per `login.escalation.type`: never a proof of work, which a script pays with CPU alone. */
const ESCALATION_KINDS: Record<PluginConfig['login']['escalation']['type'], readonly CaptchaKind[]> = {
  email: ['email'],
  image: ['image'],
  any: ['image', 'email'],
};
/** How much each kind costs an attacker: CPU alone, a captcha to read, a mailbox to read. */
const STRENGTH: Record<CaptchaKind, number> = { pow: 0, image: 1, email: 2 };
const weakest = (kinds: readonly CaptchaKind[]) => Math.min(...kinds.map((kind) => STRENGTH[kind]));

/** The kinds a captcha setting asks for, or undefined when it is off. */
export const requiredKinds = (settings: PluginConfig['login']['captcha']): readonly CaptchaKind[] | undefined =>
  settings.enabled ? KINDS_OF_TYPE[settings.type] : undefined;

export const ACCOUNT_ERRORS = {
  invalidCredentials: 'Invalid identifier or password',
  blocked: 'Your account has been blocked by an administrator',
  unconfirmed: 'Your account email is not confirmed',
  registerDisabled: 'Register action is currently disabled',
  taken: 'Email or Username are already taken',
  captchaRequired: 'Captcha code is required',
  captchaInvalid: 'Invalid or expired captcha code',
  encryptedRequired: 'Encrypted password required',
} as const;

/** The checks, for one accounts service (it keeps the dummy hash it compares against once made). */
export const credentials = (strapi: Core.Strapi) => {
  /** The clear password from `password` or `encryptedPassword` (RSA-OAEP), under `auth.requireEncryptedPassword`. */
  const clearPassword = async (input: PasswordInput, config: PluginConfig): Promise<string> => {
    if (input.password !== undefined && config.auth.requireEncryptedPassword) {
      throw new errors.ValidationError(ACCOUNT_ERRORS.encryptedRequired);
    }
    if (input.encryptedPassword !== undefined) return getService(strapi, 'crypto').rsaDecrypt(input.encryptedPassword);
    if (input.password !== undefined) return input.password;
    throw fieldError('password', 'password is a required field');
  };

  /**
   * A bcrypt hash of a random password, made by the host's own hashing (so with its cost), compared against when a
   * login names no account with a password: unknown and known identifiers then take the same time to refuse.
   */
  let dummyHash: Promise<string> | undefined;
  const passwordMatches = async (password: string, hash: string | null | undefined): Promise<boolean> => {
    const users = strapi.plugin('users-permissions').service('user');
    if (hash) return users.validatePassword(password, hash);
    dummyHash ??= users
      .ensureHashedPasswords({ password: getService(strapi, 'clock').randomBytes(16).toString('hex') })
      .then((values: { password: string }) => values.password)
      .catch((error: unknown) => {
        dummyHash = undefined;
        throw error;
      });
    await users.validatePassword(password, await dummyHash);
    return false;
  };

  /** The host's own password rules for registration: at most 72 bytes (bcrypt) and its `validatePassword` hook. */
  const checkNewPassword = async (password: string) => {
    if (Buffer.byteLength(password, 'utf8') > MAX_PASSWORD_BYTES) throw fieldError('password', 'Password must be less than 73 bytes');
    const rules = strapi.config.get('plugin::users-permissions.validationRules') as { validatePassword?: (value: string) => unknown } | undefined;
    if (typeof rules?.validatePassword === 'function') {
      let valid: unknown;
      try {
        valid = await rules.validatePassword(password);
      } catch (error) {
        throw fieldError('password', (error as Error).message || 'An error occurred.');
      }
      if (!valid) throw fieldError('password', 'Password validation failed.');
    }
  };

  /**
   * Checks a captcha of one of `kinds` (none: no captcha needed). `address` is where an e-mail code must have been
   * sent (for login: the account's own address, or the identifier when there is no such account), for `purpose` or
   * without one.
   */
  const checkCaptcha = async (
    kinds: readonly CaptchaKind[] | undefined,
    input: CaptchaInput,
    address: string,
    purpose: 'register' | 'login',
    config: PluginConfig
  ) => {
    if (!kinds) return;
    const key = input.key || undefined;
    const code = input.code || undefined;
    const keyed = answeredWithKey(kinds, key);
    if (code === undefined || (keyed && key === undefined)) throw new errors.ValidationError(ACCOUNT_ERRORS.captchaRequired);
    const valid = keyed
      ? await getService(strapi, 'captcha').verify(kinds, key!, code, config)
      : await getService(strapi, 'email-code').verify(address, code, purpose, config);
    if (!valid) throw new errors.ValidationError(ACCOUNT_ERRORS.captchaInvalid);
  };

  /**
   * The kinds of captcha a login must carry: `login.captcha`'s. In escalation (the identifier's account is past its
   * failed-login limit) those of `login.escalation.type` that the login captcha also takes, or, when they share none,
   * the stronger of the two sets (an e-mail code over an image over a proof of work): escalation never takes a proof
   * of work, nor a weaker kind than a usual login.
   */
  const loginCaptchaKinds = (config: PluginConfig, escalated: boolean): readonly CaptchaKind[] | undefined => {
    const usual = requiredKinds(config.login.captcha);
    if (!escalated) return usual;
    const escalation = ESCALATION_KINDS[config.login.escalation.type];
    if (!usual) return escalation;
    const both = escalation.filter((kind) => usual.includes(kind));
    if (both.length > 0) return both;
    return weakest(usual) > weakest(escalation) ? usual : escalation;
  };

  return { clearPassword, passwordMatches, checkNewPassword, checkCaptcha, loginCaptchaKinds };
};
