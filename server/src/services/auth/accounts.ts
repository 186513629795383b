/**
 * Register and login on top of users-permissions, so the host's rules hold: advanced settings (allow_register,
 * default_role, unique_email, email_confirmation), `register.allowedFields`, password hashing and validation.
 * Order of checks: body validation → registration enabled → captcha → credentials / duplicates.
 */
import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import type { PluginConfig } from '../../config/schema';
import type { HostAuthRoute } from '../../domain/auth';
import type { CaptchaInput, LoginBody, PasswordInput, RegisterBody } from '../../domain/shapes/auth';
import { fieldError } from '../../domain/errors';
import { USER_UID } from '../../domain/uids';
import type { ClientInfo } from '../../utils/client';
import { getService } from '../get-service';
import { MFA_ERRORS } from './mfa';
import { answeredWithKey, KINDS_OF_TYPE, type CaptchaKind } from './captcha';
import type { Tokens } from './refresh-token';
import type { SignInMethod } from './sign-in';

const ROLE_UID = 'plugin::users-permissions.role';
const MAX_PASSWORD_BYTES = 72;
/** Longest identifier a user row holds (and the plugin's validation lets through). */
const MAX_IDENTIFIER_LENGTH = 255;

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
const requiredKinds = (settings: PluginConfig['login']['captcha']): readonly CaptchaKind[] | undefined =>
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

/** The host's own auth routes the plugin guards (see host-auth-routes.ts). */

export interface AdvancedSettings {
  allow_register?: boolean;
  default_role?: string;
  unique_email?: boolean;
  email_confirmation?: boolean;
}

/** A first factor passed: the tokens, or the login challenge of an account with a second factor. */
export type SignIn =
  | { user: UserRow; tokens: Tokens; mfa?: undefined }
  | { user: UserRow; tokens?: undefined; mfa: { mfaRequired: true; mfaToken: string; methods: ['totp', 'recovery'] } };

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
   * Checks a captcha of one of `kinds` (none: no captcha needed). `address` is where an e-mail code must have been
   * sent (for login: the account's own address, or the identifier when there is no such account).
   */
  const checkCaptcha = async (kinds: readonly CaptchaKind[] | undefined, input: CaptchaInput, address: string, config: PluginConfig) => {
    if (!kinds) return;
    const key = input.key || undefined;
    const code = input.code || undefined;
    const keyed = answeredWithKey(kinds, key);
    if (code === undefined || (keyed && key === undefined)) throw new errors.ValidationError(ACCOUNT_ERRORS.captchaRequired);
    const valid = keyed
      ? await getService(strapi, 'captcha').verify(kinds, key!, code, config)
      : await getService(strapi, 'email-code').verify(address, code, config);
    if (!valid) throw new errors.ValidationError(ACCOUNT_ERRORS.captchaInvalid);
  };

  /**
   * The local account a login `identifier` names: its e-mail (any case) or its username, as the host's login. Also
   * called before any body validation (rate limit, host routes): an identifier no column can hold names no account,
   * and is not sent to the database (PostgreSQL refuses a NUL in a query: a 500).
   */
  const findLoginUser = async (identifier: string): Promise<UserRow | null> => {
    if (identifier.length > MAX_IDENTIFIER_LENGTH || identifier.includes('\u0000')) return null;
    return (await strapi.db.query(USER_UID).findOne({
      where: { provider: 'local', $or: [{ email: identifier.toLowerCase() }, { username: identifier }] },
    })) as UserRow | null;
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

  return {
    clearPassword,
    passwordMatches,
    checkNewPassword,
    advancedSettings,

    /** The local account whose address is `email` (any case), as password reset and login by code look it up. */
    async findByEmail(email: string): Promise<UserRow | null> {
      if (email.length > MAX_IDENTIFIER_LENGTH || email.includes('\u0000')) return null;
      return (await strapi.db.query(USER_UID).findOne({ where: { provider: 'local', email: email.toLowerCase() } })) as UserRow | null;
    },

    /** Creates the account; returns the user and, unless e-mail confirmation is on, its tokens. */
    async register(body: RegisterBody, client: ClientInfo): Promise<{ user: UserRow; tokens?: Tokens }> {
      const config = await getService(strapi, 'settings').get();
      const password = await clearPassword(body, config);
      await checkNewPassword(password);

      const settings = await advancedSettings();
      if (!settings.allow_register) throw new errors.ApplicationError(ACCOUNT_ERRORS.registerDisabled);

      const email = body.email.toLowerCase();
      await checkCaptcha(requiredKinds(config.register.captcha), body, email, config);

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
      return { user, tokens: await getService(strapi, 'sign-in').complete(user, client, config, 'register') };
    },

    /**
     * `escalated`: the identifier is past its failed-login limit, so a captcha is required even when login's is off.
     * An account with a second factor gets a login challenge instead of tokens (see `signIn`).
     */
    async login(body: LoginBody, client: ClientInfo, escalated = false): Promise<SignIn> {
      const config = await getService(strapi, 'settings').get();
      const password = await clearPassword(body, config);

      const { identifier } = body;
      const user = await findLoginUser(identifier);
      await checkCaptcha(loginCaptchaKinds(config, escalated), body, user?.email ?? identifier, config);

      const valid = await passwordMatches(password, user?.password);
      if (!user || !valid) throw new errors.ValidationError(ACCOUNT_ERRORS.invalidCredentials);

      const settings = await advancedSettings();
      if (settings.email_confirmation && user.confirmed !== true) throw new errors.ApplicationError(ACCOUNT_ERRORS.unconfirmed);
      if (user.blocked === true) throw new errors.ApplicationError(ACCOUNT_ERRORS.blocked);

      return this.signIn(user, client, config, 'password');
    },

    /**
     * The end of every sign-in by a first factor (password, e-mailed login code): the tokens, or, when the account
     * has a second factor, a single-use `mfaToken` that `/auth/login/mfa` exchanges for them.
     */
    async signIn(user: UserRow, client: ClientInfo, config: PluginConfig, method: SignInMethod): Promise<SignIn> {
      if (await getService(strapi, 'mfa').isEnrolled(user.id)) {
        return { user, mfa: { mfaRequired: true, mfaToken: await getService(strapi, 'mfa').startChallenge(user.id), methods: ['totp', 'recovery'] } };
      }
      return { user, tokens: await getService(strapi, 'sign-in').complete(user, client, config, method) };
    },

    /** The second step of a sign-in: the `mfaToken` and a TOTP or recovery code give the tokens. */
    async finishLogin(
      mfaToken: string,
      code: string,
      client: ClientInfo,
      setRetryAfter: (seconds: number) => void,
    ): Promise<{ user: UserRow; tokens: Tokens }> {
      const userId = await getService(strapi, 'mfa').finishChallenge(mfaToken, code, setRetryAfter);
      const user = await this.findUser(userId);
      // Blocked (or gone) while the challenge was pending: the same answer as a spent token.
      if (!user || user.blocked === true) throw new errors.ValidationError(MFA_ERRORS.invalidSession);
      return { user, tokens: await getService(strapi, 'sign-in').complete(user, client, await getService(strapi, 'settings').get(), 'password') };
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
        await checkCaptcha(requiredKinds(settings), captcha, text(body.email).toLowerCase(), config);
        return;
      }
      const identifier = text(body.identifier);
      const user = identifier === '' ? null : await findLoginUser(identifier);
      await checkCaptcha(loginCaptchaKinds(config, escalated), captcha, user?.email ?? identifier, config);
      if (!user?.password && typeof body.password === 'string') await passwordMatches(body.password, null);
      // The host's handler would send it to the database (PostgreSQL refuses a NUL: a 500); it names no account.
      if (identifier.includes('\u0000')) throw new errors.ValidationError(ACCOUNT_ERRORS.invalidCredentials);
      // The host's login knows no second factor: an account with one signs in through the plugin's `/auth/login`.
      // Only a right password learns this, so the answer tells nothing to whoever guesses.
      if (user?.password && typeof body.password === 'string' && (await getService(strapi, 'mfa').isEnrolled(user.id))) {
        if (await passwordMatches(body.password, user.password)) throw new errors.ValidationError(MFA_ERRORS.required);
      }
    },

    /**
     * The subject of login's failed-attempt counter for `identifier`, on the plugin's route and the host's alike: its
     * account's (`user:<id>`) when it names one, so the e-mail in any case and the username count together; otherwise
     * the typed string, trimmed and lower-cased, so unknown identifiers count the same way and the counter does not
     * tell which exist. Escalation follows this counter, and its captcha goes to the same account's address.
     */
    async loginFailureSubject(identifier: string): Promise<string> {
      const user = await findLoginUser(identifier);
      return user ? `user:${user.id}` : `id:${identifier.trim().toLowerCase()}`;
    },

    /** The local account a login identifier names (e-mail in any case, or username), or null. */
    findLoginUser,

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
