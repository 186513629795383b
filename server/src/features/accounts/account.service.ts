/**
 * Register and login on top of users-permissions, so the host's rules hold: advanced settings (allow_register,
 * default_role, unique_email, email_confirmation), `register.allowedFields`, password hashing and validation.
 * Order of checks: body validation → registration enabled → captcha → credentials / duplicates. The password and
 * captcha checks themselves are features/accounts/credentials.ts.
 */
import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import type { PluginConfig } from '../../platform/config/schema';
import { normalizeEmail, type HostAuthRoute } from '../../platform/auth';
import { fieldError } from '../../platform/errors';
import type { CaptchaInput, LoginBody, RegisterBody } from './auth.shapes';
import type { ClientInfo } from '../../platform/client';
import { getService } from '../../platform/get-service';
import { MFA_ERRORS } from './mfa.service';
import { ACCOUNT_ERRORS, credentials, requiredKinds } from './credentials';
import type { Tokens } from './refresh-token';
import type { SignInMethod } from './sign-in';
import { countUsers, localUserByEmail, localUserByIdentifier, roleOfType } from './users.data';

/** Longest identifier a user row holds (and the plugin's validation lets through). */
const MAX_IDENTIFIER_LENGTH = 255;

export { ACCOUNT_ERRORS } from './credentials';

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
  const { clearPassword, passwordMatches, checkNewPassword, checkCaptcha, loginCaptchaKinds } = credentials(strapi);

  /**
   * The local account a login `identifier` names: its e-mail (any case) or its username, as the host's login. Also
   * called before any body validation (rate limit, host routes): an identifier no column can hold names no account,
   * and is not sent to the database (PostgreSQL refuses a NUL in a query: a 500).
   */
  const findLoginUser = async (identifier: string): Promise<UserRow | null> => {
    const email = normalizeEmail(identifier);
    if (email.length > MAX_IDENTIFIER_LENGTH || identifier.length > MAX_IDENTIFIER_LENGTH || identifier.includes('\u0000')) return null;
    return (await localUserByIdentifier(strapi, email, identifier)) as UserRow | null;
  };

  return {
    clearPassword,
    passwordMatches,
    checkNewPassword,
    advancedSettings,

    /** The local account whose address is `address` (normalized: any case, NFKC), as password reset and login by code look it up. */
    async findByEmail(address: string): Promise<UserRow | null> {
      const email = normalizeEmail(address);
      if (email.length > MAX_IDENTIFIER_LENGTH || email.includes('\u0000')) return null;
      return (await localUserByEmail(strapi, email)) as UserRow | null;
    },

    /** Creates the account; returns the user and, unless e-mail confirmation is on, its tokens. */
    async register(body: RegisterBody, client: ClientInfo): Promise<{ user: UserRow; tokens?: Tokens }> {
      const config = await getService(strapi, 'settings').get();
      const password = await clearPassword(body, config);
      await checkNewPassword(password);

      const settings = await advancedSettings();
      if (!settings.allow_register) throw new errors.ApplicationError(ACCOUNT_ERRORS.registerDisabled);

      const email = normalizeEmail(body.email);
      if (email.length > MAX_IDENTIFIER_LENGTH) throw fieldError('email', `email must be at most ${MAX_IDENTIFIER_LENGTH} characters`);
      await checkCaptcha(requiredKinds(config.register.captcha), body, email, 'register', config);

      const role = await roleOfType(strapi, settings.default_role);
      if (!role) throw new errors.ApplicationError('Impossible to find the default role');

      const { username } = body;
      const identifierFilter = { $or: [{ email }, { username: email }, { username }, { email: username }] };
      const where = settings.unique_email ? identifierFilter : { ...identifierFilter, provider: 'local' };
      if ((await countUsers(strapi, where)) > 0) throw new errors.ApplicationError(ACCOUNT_ERRORS.taken);

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
      await checkCaptcha(loginCaptchaKinds(config, escalated), body, user?.email ?? identifier, 'login', config);

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
      const userId = await getService(strapi, 'mfa').finishChallenge(mfaToken, code, { client, setRetryAfter });
      const user = await this.findUser(userId);
      // Blocked (or gone) while the challenge was pending: the same answer as a spent token.
      if (!user || user.blocked === true) throw new errors.ValidationError(MFA_ERRORS.invalidSession);
      return { user, tokens: await getService(strapi, 'sign-in').complete(user, client, await getService(strapi, 'settings').get(), 'password') };
    },

    /**
     * What the plugin adds to the host's own `/api/auth/local`, `/auth/local/register` and `/auth/forgot-password`
     * (`auth.hostRoutes: 'guarded'`), before the host's handler: the captcha of the plugin's routes (login and
     * forgot-password: `login.captcha`; register: `register.captcha`; an e-mail code sent to the account's address
     * for login, to the body's `email` otherwise; sent for `register` or `login`, as that captcha's purpose, or without
     * one). On login, an identifier naming no account with a password costs a comparison against the dummy hash,
     * since the host's handler refuses it at once.
     */
    async guardHostRoute(route: HostAuthRoute, body: Record<string, unknown>, captcha: CaptchaInput, escalated: boolean): Promise<void> {
      const config = await getService(strapi, 'settings').get();
      const text = (value: unknown) => (typeof value === 'string' ? value : '');
      if (route !== 'login') {
        const settings = route === 'register' ? config.register.captcha : config.login.captcha;
        await checkCaptcha(requiredKinds(settings), captcha, normalizeEmail(text(body.email)), route === 'register' ? 'register' : 'login', config);
        return;
      }
      const identifier = text(body.identifier);
      const user = identifier === '' ? null : await findLoginUser(identifier);
      await checkCaptcha(loginCaptchaKinds(config, escalated), captcha, user?.email ?? identifier, 'login', config);
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
      return user ? `user:${user.id}` : `id:${normalizeEmail(identifier.trim())}`;
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
