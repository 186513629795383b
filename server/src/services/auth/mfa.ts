/**
 * Second factors of an account: TOTP enrolment (setup → enable → recovery codes), the checks that ask for a code,
 * and the login challenge (`mfaToken`) between the password and the tokens. See docs/accounts.md for the flows.
 * At rest: the TOTP secret AES-256-GCM under the plugin's key, recovery codes as keyed hashes, mfaTokens as SHA-256.
 */
import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import { forbidden } from '../../domain/errors';
import type { Requester } from './reauthentication';
import { uid } from '../../domain/plugin-id';
import type { PasswordInput } from '../../domain/shapes/auth';
import { claimChallengeAttempt, claimTotpStep, endChallenge, useRecoveryCode } from '../../repositories/auth/mfa';
import { describeMailFailure } from '../../utils/mail-failure';
import { secretHash, sha256 } from '../../utils/secret-hash';
import { getService } from '../get-service';
import { newTotpSecret, totpEnrolment, totpStep } from './totp';

const FACTOR = uid('mfa-factor');
const RECOVERY = uid('mfa-recovery-code');
const CHALLENGE = uid('mfa-challenge');

const RECOVERY_CODES = 10;
/** How long a login's mfaToken lives, and how many wrong codes void it. */
export const MFA_TOKEN_TTL_MS = 5 * 60 * 1000;
export const MFA_MAX_ATTEMPTS = 5;
export const MFA_DISABLED = 'Two-factor authentication is disabled';

export const MFA_ERRORS = {
  alreadyEnabled: 'Two-factor authentication is already enabled',
  notEnabled: 'Two-factor authentication is not enabled',
  noSetup: 'Two-factor setup not started',
  invalidCode: 'Invalid two-factor code',
  codeRequired: 'Two-factor code required',
  invalidSession: 'Invalid or expired two-factor session',
  required: 'Two-factor authentication required',
} as const;

interface FactorRow {
  id: number;
  userId: number;
  secret?: string | null;
  pendingSecret?: string | null;
  enabledAt?: number | string | null;
}

interface ChallengeRow {
  id: number;
  userId: number;
  expiresAt: number | string;
  attempts: number;
}

const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
/** Recovery codes are typed by hand: case, spaces and dashes do not matter. */
const normalizeRecovery = (code: string) => code.toLowerCase().replace(/[\s-]/g, '');

const mfa = ({ strapi }: { strapi: Core.Strapi }) => {
  const clock = () => getService(strapi, 'clock');
  const factorOf = async (userId: number) => (await strapi.db.query(FACTOR).findOne({ where: { userId } })) as FactorRow | null;
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
    await strapi.db.query(RECOVERY).deleteMany({ where: { userId } });
    const createdAt = new Date(clock().now());
    await strapi.db.query(RECOVERY).createMany({ data: codes.map((code) => ({ userId, codeHash: recoveryHash(userId, code), createdAt })) });
    return codes;
  };

  const mailRecoveryNotice = async (userId: number) => {
    const user = await getService(strapi, 'accounts').findUser(userId);
    if (!user?.email) return;
    const left = await strapi.db.query(RECOVERY).count({ where: { userId } });
    try {
      await strapi.plugin('email').service('email').send({
        to: user.email,
        subject: 'A recovery code was used to sign in',
        text: `A recovery code of your account was just used to sign in. ${left} recovery codes are left.\n\nIf this was not you, change your password and set up two-factor authentication again.`,
      });
    } catch (error) {
      strapi.log.warn(`cms-plugin-bag: recovery-code notice not sent (${describeMailFailure(error)})`);
    }
  };

  /** True when `code` is the account's current TOTP code (not used before) or one of its unused recovery codes. */
  const checkCode = async (factor: FactorRow, code: string): Promise<boolean> => {
    const trimmed = code.trim();
    const secret = await getService(strapi, 'crypto').aesDecrypt(factor.secret!);
    const step = totpStep(secret, trimmed, clock().now());
    if (step !== undefined) return claimTotpStep(strapi, factor.userId, step);
    if (/^\d{6}$/.test(trimmed)) return false;
    if (!(await useRecoveryCode(strapi, factor.userId, recoveryHash(factor.userId, trimmed)))) return false;
    await mailRecoveryNotice(factor.userId);
    return true;
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
      const recoveryCodesLeft = factor ? await strapi.db.query(RECOVERY).count({ where: { userId } }) : 0;
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
      if (factor) await strapi.db.query(FACTOR).update({ where: { id: factor.id }, data: { pendingSecret } });
      else await strapi.db.query(FACTOR).create({ data: { userId, pendingSecret } });
      const config = await getService(strapi, 'settings').get();
      const issuer = config.account.mfa.issuer ?? (config.site.title || 'Strapi');
      return { secret, ...(await totpEnrolment(secret, issuer, user.email)) };
    },

    /** Confirms the pending secret with a current code; answers the recovery codes, shown only here. */
    async enable(userId: number, code: string) {
      const factor = await factorOf(userId);
      if (factor?.secret) throw new errors.ValidationError(MFA_ERRORS.alreadyEnabled);
      if (!factor?.pendingSecret) throw new errors.ValidationError(MFA_ERRORS.noSetup);
      const secret = await getService(strapi, 'crypto').aesDecrypt(factor.pendingSecret);
      const step = totpStep(secret, code.trim(), clock().now());
      if (step === undefined || !(await claimTotpStep(strapi, userId, step))) throw new errors.ValidationError(MFA_ERRORS.invalidCode);
      await strapi.db.query(FACTOR).update({
        where: { id: factor.id },
        data: { secret: factor.pendingSecret, pendingSecret: null, enabledAt: clock().now() },
      });
      return { recoveryCodes: await newRecoveryCodes(userId) };
    },

    /**
     * What any action that needs the second factor calls first (new recovery codes, disable, e-mail change, account
     * deletion): nothing when TOTP is off; else `mfaCode` must be a current TOTP or an unused recovery code.
     */
    async requireSecondFactor(userId: number, mfaCode: string | undefined): Promise<void> {
      const factor = await enabledFactor(userId);
      if (!factor) return;
      if (mfaCode === undefined || mfaCode.trim() === '') throw new errors.ValidationError(MFA_ERRORS.codeRequired);
      if (!(await checkCode(factor, mfaCode))) throw new errors.ValidationError(MFA_ERRORS.invalidCode);
    },

    async regenerateRecoveryCodes(userId: number, mfaCode: string | undefined) {
      if (!(await enabledFactor(userId))) throw new errors.ValidationError(MFA_ERRORS.notEnabled);
      await service.requireSecondFactor(userId, mfaCode);
      return { recoveryCodes: await newRecoveryCodes(userId) };
    },

    async disable(userId: number, password: PasswordInput, mfaCode: string | undefined, requester: Requester) {
      await reauthenticate(userId, password, requester);
      if (!(await enabledFactor(userId))) throw new errors.ValidationError(MFA_ERRORS.notEnabled);
      await service.requireSecondFactor(userId, mfaCode);
      await service.removeUser(userId);
      return { message: 'Two-factor authentication disabled' };
    },

    /** An account's TOTP and recovery codes gone (disable, or the account deleted). */
    async removeUser(...userIds: number[]) {
      const where = { userId: { $in: userIds } };
      await strapi.db.query(FACTOR).deleteMany({ where });
      await strapi.db.query(RECOVERY).deleteMany({ where });
      await strapi.db.query(CHALLENGE).deleteMany({ where });
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
      await strapi.db.query(RECOVERY).deleteMany({ where: { userId, createdAt: { $gte: since } } });
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
      await strapi.db.query(CHALLENGE).deleteMany({ where: { expiresAt: { $lt: now } } });
      await strapi.db.query(CHALLENGE).create({ data: { tokenHash: sha256(token), userId, expiresAt: now + MFA_TOKEN_TTL_MS, attempts: 0 } });
      return token;
    },

    /**
     * The account a pending login belongs to, once its code is right; the token is then used up. A wrong code counts
     * as a failed login of the account (`rateLimit.login`, the counter `/auth/login` uses): past its max → 429.
     */
    async finishChallenge(mfaToken: string, code: string, setRetryAfter: (seconds: number) => void): Promise<number> {
      const row = (await strapi.db.query(CHALLENGE).findOne({ where: { tokenHash: sha256(mfaToken) } })) as ChallengeRow | null;
      if (!row || !(await claimChallengeAttempt(strapi, row.id, MFA_MAX_ATTEMPTS, clock().now()))) {
        throw new errors.ValidationError(MFA_ERRORS.invalidSession);
      }
      const factor = await enabledFactor(row.userId);
      if (!factor) {
        await endChallenge(strapi, row.id);
        throw new errors.ValidationError(MFA_ERRORS.invalidSession);
      }
      const config = await getService(strapi, 'settings').get();
      const limiter = getService(strapi, 'rate-limit');
      const subject = `user:${row.userId}`;
      const hit = await limiter.check('login', subject, config);
      if (!hit.allowed) {
        setRetryAfter(hit.retryAfter);
        throw new errors.RateLimitError();
      }
      if (!(await checkCode(factor, code))) throw new errors.ValidationError(MFA_ERRORS.invalidCode);
      await limiter.giveBack('login', subject, config);
      if (!(await endChallenge(strapi, row.id))) throw new errors.ValidationError(MFA_ERRORS.invalidSession);
      return row.userId;
    },
  };
  return service;
};

export type MfaService = ReturnType<typeof mfa>;
export default mfa;
