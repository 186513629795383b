/**
 * Register and login on top of users-permissions, so the host's rules hold: advanced settings (allow_register,
 * default_role, unique_email, email_confirmation), `register.allowedFields`, password hashing and validation.
 * Order of checks (CONTRACT.md §4): body validation → registration enabled → captcha → credentials / duplicates.
 */
import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import type { PluginConfig } from '../config/schema';
import type { ClientInfo } from '../utils/client';
import { getService } from '../utils/get-service';
import { answeredWithKey } from './captcha';
import type { Tokens } from './refresh-token';
import { fieldError, type CaptchaInput, type LoginBody, type PasswordInput, type RegisterBody } from '../validation/auth';

const USER_UID = 'plugin::users-permissions.user';
const ROLE_UID = 'plugin::users-permissions.role';
const MAX_PASSWORD_BYTES = 72;

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

/** The host's own auth routes the plugin guards (see host-auth-routes.ts). */
export type HostAuthRoute = 'login' | 'register' | 'forgotPassword';

interface AdvancedSettings {
  allow_register?: boolean;
  default_role?: string;
  unique_email?: boolean;
  email_confirmation?: boolean;
}

export interface UserRow {
  id: number;
  email: string;
  password?: string | null;
  confirmed?: boolean;
  blocked?: boolean;
}

const accounts = ({ strapi }: { strapi: Core.Strapi }) => {
  const usersPermissions = () => strapi.plugin('users-permissions');
  const advancedSettings = async (): Promise<AdvancedSettings> =>
    ((await strapi.store({ type: 'plugin', name: 'users-permissions' }).get({ key: 'advanced' })) as AdvancedSettings | null) ?? {};

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
    const users = usersPermissions().service('user');
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
   * Checks the captcha of the given kind. `address` is where an e-mail code must have been sent (for login: the
   * account's own address, or the identifier when there is no such account).
   */
  const checkCaptcha = async (
    settings: PluginConfig['login']['captcha'],
    input: CaptchaInput,
    address: string,
    config: PluginConfig
  ) => {
    if (!settings.enabled) return;
    const key = input.key || undefined;
    const code = input.code || undefined;
    const { type } = settings;
    const keyed = answeredWithKey(type, key);
    if (code === undefined || (keyed && key === undefined)) throw new errors.ValidationError(ACCOUNT_ERRORS.captchaRequired);
    const valid = keyed
      ? await getService(strapi, 'captcha').verify(type, key!, code, config)
      : await getService(strapi, 'email-code').verify(address, code, config);
    if (!valid) throw new errors.ValidationError(ACCOUNT_ERRORS.captchaInvalid);
  };

  /** The local account a login `identifier` names: its e-mail (any case) or its username, as the host's login. */
  const findLoginUser = async (identifier: string): Promise<UserRow | null> =>
    (await strapi.db.query(USER_UID).findOne({
      where: { provider: 'local', $or: [{ email: identifier.toLowerCase() }, { username: identifier }] },
    })) as UserRow | null;

  /**
   * The captcha a login must carry: `login.captcha`; in escalation at least a captcha of any kind the plugin offers
   * (the configured one when login's captcha is on, so escalation never accepts a weaker kind than usual).
   */
  const loginCaptcha = (config: PluginConfig, escalated: boolean): PluginConfig['login']['captcha'] =>
    escalated && !config.login.captcha.enabled ? { enabled: true, type: 'any' } : config.login.captcha;

  return {
    /** Creates the account; returns the user and, unless e-mail confirmation is on, its tokens. */
    async register(body: RegisterBody, client: ClientInfo): Promise<{ user: UserRow; tokens?: Tokens }> {
      const config = await getService(strapi, 'settings').get();
      const password = await clearPassword(body, config);
      await checkNewPassword(password);

      const settings = await advancedSettings();
      if (!settings.allow_register) throw new errors.ApplicationError(ACCOUNT_ERRORS.registerDisabled);

      const email = body.email.toLowerCase();
      await checkCaptcha(config.register.captcha, body, email, config);

      const role = await strapi.db.query(ROLE_UID).findOne({ where: { type: settings.default_role } });
      if (!role) throw new errors.ApplicationError('Impossible to find the default role');

      const { username } = body;
      const identifierFilter = { $or: [{ email }, { username: email }, { username }, { email: username }] };
      const where = settings.unique_email ? identifierFilter : { ...identifierFilter, provider: 'local' };
      if ((await strapi.db.query(USER_UID).count({ where })) > 0) throw new errors.ApplicationError(ACCOUNT_ERRORS.taken);

      const user = (await usersPermissions().service('user').add({
        ...body.extra,
        username,
        email,
        password,
        provider: 'local',
        role: role.id,
        confirmed: !settings.email_confirmation,
      })) as UserRow;

      if (settings.email_confirmation) {
        try {
          await usersPermissions().service('user').sendConfirmationEmail(user);
        } catch (error) {
          strapi.log.error(error);
          throw new errors.ApplicationError('Error sending confirmation email');
        }
        return { user };
      }
      return { user, tokens: await getService(strapi, 'refresh-token').issue(user.id, client, config) };
    },

    /** `escalated`: the identifier is past its failed-login limit, so a captcha is required even when login's is off. */
    async login(body: LoginBody, client: ClientInfo, escalated = false): Promise<{ user: UserRow; tokens: Tokens }> {
      const config = await getService(strapi, 'settings').get();
      const password = await clearPassword(body, config);

      const { identifier } = body;
      const user = await findLoginUser(identifier);
      await checkCaptcha(loginCaptcha(config, escalated), body, user?.email ?? identifier, config);

      const valid = await passwordMatches(password, user?.password);
      if (!user || !valid) throw new errors.ValidationError(ACCOUNT_ERRORS.invalidCredentials);

      const settings = await advancedSettings();
      if (settings.email_confirmation && user.confirmed !== true) throw new errors.ApplicationError(ACCOUNT_ERRORS.unconfirmed);
      if (user.blocked === true) throw new errors.ApplicationError(ACCOUNT_ERRORS.blocked);

      return { user, tokens: await getService(strapi, 'refresh-token').issue(user.id, client, config) };
    },

    /**
     * What the plugin adds to the host's own `/api/auth/local`, `/auth/local/register` and `/auth/forgot-password`
     * (`auth.hostRoutes: 'guarded'`), before the host's handler: the captcha of the plugin's routes (login and
     * forgot-password: `login.captcha`; register: `register.captcha`; an e-mail code sent to the account's address
     * for login, to the body's `email` otherwise). On login, an identifier naming no account with a password costs a
     * comparison against the dummy hash, since the host's handler refuses it at once.
     */
    async guardHostRoute(route: HostAuthRoute, body: Record<string, unknown>, captcha: CaptchaInput, escalated: boolean): Promise<void> {
      const config = await getService(strapi, 'settings').get();
      const text = (value: unknown) => (typeof value === 'string' ? value : '');
      if (route !== 'login') {
        const settings = route === 'register' ? config.register.captcha : config.login.captcha;
        await checkCaptcha(settings, captcha, text(body.email).toLowerCase(), config);
        return;
      }
      const identifier = text(body.identifier);
      const user = identifier === '' ? null : await findLoginUser(identifier);
      await checkCaptcha(loginCaptcha(config, escalated), captcha, user?.email ?? identifier, config);
      if (!user?.password && typeof body.password === 'string') await passwordMatches(body.password, null);
    },

    /** A new access token for a live refresh token. */
    async refresh(refreshToken: string): Promise<string> {
      return getService(strapi, 'refresh-token').refresh(refreshToken, await getService(strapi, 'settings').get());
    },

    /** The user as the host stores it (sanitize before showing it). */
    async findUser(id: number): Promise<UserRow | null> {
      return (await usersPermissions().service('user').fetch(id, {})) as UserRow | null;
    },
  };
};

export type AccountsService = ReturnType<typeof accounts>;
export default accounts;
