/**
 * Second factors of an account: TOTP enrolment (setup → enable → recovery codes), the checks that ask for a code,
 * and the login challenge (`mfaToken`) between the password and the tokens. See docs/accounts.md for the flows.
 * At rest: the TOTP secret AES-256-GCM under the plugin's key, recovery codes as keyed hashes, mfaTokens as SHA-256.
 */
import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import type { Context } from 'koa';
import { forbidden } from '../../platform/errors';
import type { Requester } from './reauthentication';
import type { PasswordInput } from './auth.shapes';
import {
  claimChallengeAttempt,
  claimTotpStep,
  clearWrongCodes,
  countWrongCode,
  endChallenge,
  useRecoveryCode,
  factorOf as factorRowOf,
  createPendingFactor,
  setPendingSecret,
  enableFactor,
  deleteRecoveryCodesOf,
  addRecoveryCodes,
  countRecoveryCodes,
  deleteRecoveryCodesSince,
  deleteSecondFactorsOf,
  deleteExpiredChallenges,
  createChallenge,
  challengeByTokenHash,
  type FactorRow,
} from './mfa.data';
import { clientInfo, rateLimitAddress } from '../../platform/client';
import { secretHash, sha256 } from '../../platform/secret-hash';
import { getService } from '../../platform/get-service';
import { newTotpSecret, totpEnrolment, totpStep } from './totp';

const RECOVERY_CODES = 10;
/** How long a login's mfaToken lives, and how many wrong codes void it. */
export const MFA_TOKEN_TTL_MS = 5 * 60 * 1000;
export const MFA_MAX_ATTEMPTS = 5;
/** Wrong codes in a row (any route, any instance) that lock an account's second factor, and for how long. */
export const MFA_LOCK_THRESHOLD = 10;
export const MFA_LOCK_MS = 15 * 60 * 1000;
/** Longer than any mfaToken this plugin issues: not looked up, answered as any other unknown token. */
const MAX_MFA_TOKEN_LENGTH = 4096;
export const MFA_DISABLED = 'Two-factor authentication is disabled';

export const MFA_ERRORS = {
  alreadyEnabled: 'Two-factor authentication is already enabled',
  notEnabled: 'Two-factor authentication is not enabled',
  noSetup: 'Two-factor setup not started',
  invalidCode: 'Invalid two-factor code',
  codeRequired: 'Two-factor code required',
  invalidSession: 'Invalid or expired two-factor session',
  required: 'Two-factor authentication required',
  locked: 'Too many invalid two-factor codes, try again later',
} as const;

const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
/** Recovery codes are typed by hand: case, spaces and dashes do not matter. */
const normalizeRecovery = (code: string) => code.toLowerCase().replace(/[\s-]/g, '');

const mfa = ({ strapi }: { strapi: Core.Strapi }) => {
  const clock = () => getService(strapi, 'clock');
  const factorOf = (userId: number) => factorRowOf(strapi, userId);
  const enabledFactor = async (userId: number) => {
    const factor = await factorOf(userId);
    return factor?.secret ? factor : null;
  };
  const recoveryHash = (userId: number, code: string) => secretHash(strapi, 'mfa-recovery', String(userId), normalizeRecovery(code));

  const newRecoveryCodes = async (userId: number): Promise<string[]> => {
    const codes = Array.from({ length: RECOVERY_CODES }, () => {
      const chars = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[clock().randomInt(0, RECOVERY_ALPHABET.length)]).join('');
      return `${chars.slice(0, 5)}-${chars.slice(5)}`;
    });
    await deleteRecoveryCodesOf(strapi, userId);
    const createdAt = new Date(clock().now());
    await addRecoveryCodes(strapi, userId, codes.map((code) => recoveryHash(userId, code)), createdAt);
    return codes;
  };

  const alert = () => getService(strapi, 'credential-alerts');

  /** True when `code` is a current TOTP code (not used before) of `secret`, or, `recovery`, one of the account's unused recovery codes. */
  const checkCode = async (userId: number, encryptedSecret: string, code: string, recovery: boolean): Promise<boolean> => {
    const trimmed = code.trim();
    const secret = await getService(strapi, 'crypto').aesDecrypt(encryptedSecret);
    const step = totpStep(secret, trimmed, clock().now());
    if (step !== undefined) return claimTotpStep(strapi, userId, step);
    if (!recovery || /^\d{6}$/.test(trimmed)) return false;
    if (!(await useRecoveryCode(strapi, userId, recoveryHash(userId, trimmed)))) return false;
    alert().changed(userId, 'recovery-code-used', {
      extra: async () => `${await countRecoveryCodes(strapi, userId)} recovery codes are left.`,
    });
    return true;
  };

  /** The requester of the request being handled, for a caller that has none at hand. */
  const currentRequester = (): Requester | undefined => {
    const ctx = strapi.requestContext.get() as Context | undefined;
    return ctx ? { client: clientInfo(ctx), setRetryAfter: (seconds) => ctx.set('Retry-After', String(seconds)) } : undefined;
  };

  /**
   * The one check of a second-factor code, on every route that takes one (the login step, new recovery codes,
   * disable, enable, e-mail change, deletion, adding a passkey). Locked (ten wrong codes in a row, on any instance):
   * refused whatever the code. Each try counts on `rateLimit.login`, per client IP (unless the route's middleware
   * counted it: `ipCounted`) and on the account's failed-login counter, the one `/auth/login` escalates on (past either
   * max → 429); a right code gives both hits back and ends the run of wrong ones, a wrong one adds to the run, and the
   * one that completes it locks the second factor for `MFA_LOCK_MS` and mails the owner. `pending`: the code of a
   * secret being enabled (no recovery codes yet).
   */
  const verifyCode = async (
    factor: FactorRow,
    code: string,
    requester: Requester | undefined,
    { pending = false, ipCounted = false }: { pending?: boolean; ipCounted?: boolean } = {},
  ): Promise<void> => {
    const now = clock().now();
    if (Number(factor.lockedUntil ?? 0) > now) throw new errors.ValidationError(MFA_ERRORS.locked);
    const config = await getService(strapi, 'settings').get();
    const limiter = getService(strapi, 'rate-limit');
    const refuse = (retryAfter: number): never => {
      requester?.setRetryAfter(retryAfter);
      throw new errors.RateLimitError();
    };
    const byIp = requester && !ipCounted ? `ip:${rateLimitAddress(requester.client.ip)}` : undefined;
    if (byIp) {
      const hit = await limiter.check('login', byIp, config);
      if (!hit.allowed) refuse(hit.retryAfter);
    }
    const byAccount = `user:${factor.userId}`;
    const hit = await limiter.check('login', byAccount, config);
    if (!hit.allowed) refuse(hit.retryAfter);
    const right = pending
      ? await checkCode(factor.userId, factor.pendingSecret!, code, false)
      : await checkCode(factor.userId, factor.secret!, code, true);
    if (!right) {
      if (await countWrongCode(strapi, factor.userId, MFA_LOCK_THRESHOLD, now + MFA_LOCK_MS)) {
        alert().changed(factor.userId, 'second-factor-locked', { client: requester?.client });
      }
      throw new errors.ValidationError(MFA_ERRORS.invalidCode);
    }
    if (Number(factor.failedCodes ?? 0) > 0) await clearWrongCodes(strapi, factor.userId);
    await limiter.giveBack('login', byAccount, config);
    if (byIp) await limiter.giveBack('login', byIp, config);
  };

  /** The password re-check of a change to the account's security: counted as a login of the account, as every re-authentication is. */
  const reauthenticate = async (userId: number, password: PasswordInput, requester: Requester) => {
    const user = await getService(strapi, 'accounts').findUser(userId);
    if (!user) throw new errors.UnauthorizedError('Missing or invalid credentials');
    await getService(strapi, 'reauthentication').confirm(user, password, requester, await getService(strapi, 'settings').get());
    return user;
  };

  const service = {
    /** `account.mfa.enabled` off: no new enrolment (403); an account already enrolled keeps its factors. */
    async assertEnabled(): Promise<void> {
      if (!(await getService(strapi, 'settings').get()).account.mfa.enabled) throw forbidden(MFA_DISABLED);
    },

    async isEnrolled(userId: number): Promise<boolean> {
      return (await enabledFactor(userId)) !== null;
    },

    async status(userId: number) {
      const factor = await enabledFactor(userId);
      const recoveryCodesLeft = factor ? await countRecoveryCodes(strapi, userId) : 0;
      return { totp: factor !== null, recoveryCodesLeft, passkeys: await getService(strapi, 'passkeys').list(userId) };
    },

    /** Starts (or restarts) an enrolment after the password re-check: nothing is active until `enable`. */
    async setup(userId: number, password: PasswordInput, requester: Requester) {
      await service.assertEnabled();
      const user = await reauthenticate(userId, password, requester);
      const factor = await factorOf(userId);
      if (factor?.secret) throw new errors.ValidationError(MFA_ERRORS.alreadyEnabled);
      const secret = newTotpSecret(clock().randomBytes(20));
      const pendingSecret = await getService(strapi, 'crypto').aesEncrypt(secret);
      if (factor) await setPendingSecret(strapi, factor.id, pendingSecret);
      else await createPendingFactor(strapi, userId, pendingSecret);
      const config = await getService(strapi, 'settings').get();
      const issuer = config.account.mfa.issuer ?? (config.site.title || 'Strapi');
      return { secret, ...(await totpEnrolment(secret, issuer, user.email)) };
    },

    /** Confirms the pending secret with a current code (counted as every code is); answers the recovery codes, shown only here. */
    async enable(userId: number, code: string, requester: Requester) {
      const factor = await factorOf(userId);
      if (factor?.secret) throw new errors.ValidationError(MFA_ERRORS.alreadyEnabled);
      if (!factor?.pendingSecret) throw new errors.ValidationError(MFA_ERRORS.noSetup);
      await verifyCode(factor, code, requester, { pending: true });
      await enableFactor(strapi, factor.id, factor.pendingSecret, clock().now());
      const recoveryCodes = await newRecoveryCodes(userId);
      alert().changed(userId, 'totp-enabled', { client: requester.client });
      return { recoveryCodes };
    },

    /**
     * What any action that needs the second factor calls first (new recovery codes, disable, e-mail change, account
     * deletion, adding a passkey): nothing when TOTP is off; else `mfaCode` must be a current TOTP or an unused
     * recovery code, checked and counted by `verifyCode`. `requester` defaults to the request being handled.
     */
    async requireSecondFactor(userId: number, mfaCode: string | undefined, requester: Requester | undefined = currentRequester()): Promise<void> {
      const factor = await enabledFactor(userId);
      if (!factor) return;
      if (mfaCode === undefined || mfaCode.trim() === '') throw new errors.ValidationError(MFA_ERRORS.codeRequired);
      await verifyCode(factor, mfaCode, requester);
    },

    async regenerateRecoveryCodes(userId: number, mfaCode: string | undefined, requester: Requester) {
      if (!(await enabledFactor(userId))) throw new errors.ValidationError(MFA_ERRORS.notEnabled);
      await service.requireSecondFactor(userId, mfaCode, requester);
      const recoveryCodes = await newRecoveryCodes(userId);
      alert().changed(userId, 'recovery-codes-renewed', { client: requester.client });
      return { recoveryCodes };
    },

    async disable(userId: number, password: PasswordInput, mfaCode: string | undefined, requester: Requester) {
      await reauthenticate(userId, password, requester);
      if (!(await enabledFactor(userId))) throw new errors.ValidationError(MFA_ERRORS.notEnabled);
      await service.requireSecondFactor(userId, mfaCode, requester);
      await service.removeUser(userId);
      alert().changed(userId, 'totp-disabled', { client: requester.client });
      return { message: 'Two-factor authentication disabled' };
    },

    /** An account's TOTP and recovery codes gone (disable, or the account deleted). */
    async removeUser(...userIds: number[]) {
      await deleteSecondFactorsOf(strapi, userIds);
    },

    /**
     * What an e-mail revert takes back: TOTP enabled at `since` or later (with its recovery codes), else recovery codes
     * renewed since, and an unfinished setup. TOTP the owner had before stays.
     */
    async removeAddedSince(userId: number, since: Date) {
      const factor = await factorOf(userId);
      if (!factor) return;
      if (!factor.secret || Number(factor.enabledAt) >= since.getTime()) {
        await service.removeUser(userId);
        return;
      }
      await deleteRecoveryCodesSince(strapi, userId, since);
    },

    /** Everything of a deleted account: second factors and passkeys. */
    async forgetUser(...userIds: number[]) {
      await service.removeUser(...userIds);
      await getService(strapi, 'passkeys').removeUser(...userIds);
    },

    /**
     * A host answer that would sign in an account with a second factor, without its token: `jwt` and `refreshToken`
     * taken out of `{ jwt, refreshToken?, user }` when `user` has one (the host's reset-password, e-mail
     * confirmation and provider callback, REST and GraphQL). Anything else is answered unchanged.
     */
    async withholdTokens<T>(answer: T): Promise<T> {
      if (typeof answer !== 'object' || answer === null || !('jwt' in answer)) return answer;
      const user = (answer as { user?: { id?: unknown } }).user;
      if (typeof user?.id !== 'number' || !(await service.isEnrolled(user.id))) return answer;
      const { jwt: _jwt, refreshToken: _refreshToken, ...rest } = answer as Record<string, unknown>;
      return rest as T;
    },

    /** A login passed its first factor: the single-use `mfaToken` its second factor finishes. */
    async startChallenge(userId: number): Promise<string> {
      const now = clock().now();
      const token = clock().randomBytes(32).toString('base64url');
      await deleteExpiredChallenges(strapi, now);
      await createChallenge(strapi, sha256(token), userId, now + MFA_TOKEN_TTL_MS);
      return token;
    },

    /**
     * The account a pending login belongs to, once its code is right; the token is then used up. The code is checked
     * and counted by `verifyCode` (the route's middleware counts the client IP). Any string that is not a live
     * challenge's token (a jwt, a random string of any length) is `Invalid or expired two-factor session`.
     */
    async finishChallenge(mfaToken: string, code: string, requester: Requester): Promise<number> {
      if (mfaToken.length > MAX_MFA_TOKEN_LENGTH) throw new errors.ValidationError(MFA_ERRORS.invalidSession);
      const row = await challengeByTokenHash(strapi, sha256(mfaToken));
      if (!row || !(await claimChallengeAttempt(strapi, row.id, MFA_MAX_ATTEMPTS, clock().now()))) {
        throw new errors.ValidationError(MFA_ERRORS.invalidSession);
      }
      const factor = await enabledFactor(row.userId);
      if (!factor) {
        await endChallenge(strapi, row.id);
        throw new errors.ValidationError(MFA_ERRORS.invalidSession);
      }
      await verifyCode(factor, code, requester, { ipCounted: true });
      if (!(await endChallenge(strapi, row.id))) throw new errors.ValidationError(MFA_ERRORS.invalidSession);
      return row.userId;
    },
  };
  return service;
};

export type MfaService = ReturnType<typeof mfa>;
export default mfa;
