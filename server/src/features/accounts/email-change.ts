/**
 * E-mail change confirmed by both addresses. A request (password re-checked) mails a code to the new address and
 * changes nothing; the code confirms the change, and the old address then gets a notice naming the new one with a
 * revert link. The link's token is 256 random bits, stored only as SHA-256 with its expiry
 * (`account.emailChange.revertWindow`), and works once: reverting brings the old address back, takes back the passkeys,
 * TOTP and recovery codes added since the change (whoever changed the address may have added them), and ends every
 * session.
 */
import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import type { PluginConfig } from '../../platform/config/schema';
import { normalizeEmail } from '../../platform/auth';
import { fieldError } from '../../platform/errors';
import { serverUrl, type ServerConfig } from '../../platform/server-url';
import type { EmailChangeBody } from './account.shapes';
import { sha256 } from '../../platform/secret-hash';
import { getService } from '../../platform/get-service';
import type { ClientInfo } from '../../platform/client';
import { emailChangedNotice } from './account-mails';
import { ACCOUNT_ERRORS, type UserRow } from './account.service';
import { describeSeconds, type SendResult } from './email-code';
import type { Requester } from './reauthentication';
import {
  createDoneChange,
  createPendingChange,
  deleteChangesOf,
  deleteExpiredChanges,
  deletePendingChangesOf,
  doneChangeByTokenHash,
  livePendingChangeOf,
  takeDoneChange,
  type ChangeRow,
} from './email-change.data';
import { emailTakenByAnother, userIdOf } from './users.data';

export type { ChangeRow } from './email-change.data';

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
export const INVALID_LINK = 'Invalid or expired link';

const emailChange = ({ strapi }: { strapi: Core.Strapi }) => {
  const now = () => getService(strapi, 'clock').now();

  /**
   * Whether another account (any provider) has `email` as its address, or as its username in any case (a login by
   * that identifier would otherwise match two accounts).
   */
  const takenByAnother = (email: string, userId: number) => emailTakenByAnother(strapi, email, userId);

  /** The revert link: its origin from configuration only (the host's server URL), never from a request. */
  const revertUrl = (token: string) => {
    const origin = serverUrl(strapi.config.get<ServerConfig>('server', {}));
    const prefix = strapi.config.get<string>('api.rest.prefix', '/api');
    return `${origin}${prefix}/cms-plugin-bag/auth/email/revert?token=${token}`;
  };

  return {
    /** Re-checks the password, then mails a code to the new address (the send-code rules); nothing changes yet. */
    async request(user: UserRow, body: EmailChangeBody, requester: Requester, config: PluginConfig): Promise<SendResult> {
      await getService(strapi, 'reauthentication').confirm(user, body, requester, config);
      // An account with TOTP on proves the second factor too.
      await getService(strapi, 'mfa').requireSecondFactor(user.id, body.mfaCode, requester);
      const email = normalizeEmail(body.email);
      if (email.length > 255) throw fieldError('email', 'email must be at most 255 characters');
      if (email === normalizeEmail(user.email)) throw fieldError('email', 'email is already the address of this account');
      if (await takenByAnother(email, user.id)) throw new errors.ApplicationError(ACCOUNT_ERRORS.taken);
      const result = await getService(strapi, 'email-code').send(email, config, 'email-change');
      if (!result.sent) return result;
      await deletePendingChangesOf(strapi, user.id);
      await createPendingChange(strapi, { userId: user.id, oldEmail: user.email, newEmail: email, expiresAt: now() + config.captcha.email.expiresIn * 1000 });
      return result;
    },

    /**
     * The code sent to the new address makes it the account's; the old one gets the notice (when, from where, and
     * the revert link), after the answer as every credential change's.
     */
    async confirm(user: UserRow, code: string, client: ClientInfo, config: PluginConfig): Promise<UserRow> {
      const pending = await livePendingChangeOf(strapi, user.id, now());
      if (!pending || !(await getService(strapi, 'email-code').verify(pending.newEmail, code, 'email-change', config))) {
        throw new errors.ValidationError(ACCOUNT_ERRORS.captchaInvalid);
      }
      if (await takenByAnother(pending.newEmail, user.id)) throw new errors.ApplicationError(ACCOUNT_ERRORS.taken);
      const oldEmail = user.email;
      const updated = (await strapi.plugin('users-permissions').service('user').edit(user.id, { email: pending.newEmail })) as UserRow;
      const token = getService(strapi, 'clock').randomBytes(32).toString('base64url');
      const { revertWindow } = config.account.emailChange;
      await deletePendingChangesOf(strapi, user.id);
      await createDoneChange(strapi, {
        userId: user.id,
        oldEmail,
        newEmail: pending.newEmail,
        tokenHash: sha256(token),
        expiresAt: now() + revertWindow * 1000,
        // From the plugin's clock, as the credentials a revert compares it with (passkeys, TOTP, recovery codes).
        createdAt: new Date(now()),
      });
      const at = new Date(now());
      const notice = emailChangedNotice(oldEmail, pending.newEmail, revertUrl(token), describeSeconds(revertWindow), at, client);
      getService(strapi, 'credential-alerts').send(notice);
      return updated;
    },

    /** Throws `Invalid or expired link` unless `token` is a live revert token; changes nothing (the GET page). */
    async check(token: unknown): Promise<void> {
      await this.find(token);
    },

    async find(token: unknown): Promise<ChangeRow> {
      if (typeof token !== 'string' || !TOKEN_PATTERN.test(token)) throw new errors.ValidationError(INVALID_LINK);
      const row = await doneChangeByTokenHash(strapi, sha256(token));
      if (!row || Number(row.expiresAt) <= now()) throw new errors.ValidationError(INVALID_LINK);
      return row;
    },

    /**
     * Brings the old address back, removes the credentials added since the change and ends every session; the token
     * works once (a conditional DELETE).
     */
    async revert(token: unknown): Promise<void> {
      const row = await this.find(token);
      if (!(await takeDoneChange(strapi, row.id, row.tokenHash))) throw new errors.ValidationError(INVALID_LINK);
      const user = await userIdOf(strapi, row.userId);
      if (!user) throw new errors.ValidationError(INVALID_LINK);
      if (await takenByAnother(row.oldEmail, row.userId)) throw new errors.ApplicationError(ACCOUNT_ERRORS.taken);
      await strapi.plugin('users-permissions').service('user').edit(row.userId, { email: row.oldEmail });
      await deleteChangesOf(strapi, row.userId);
      const changedAt = new Date(row.createdAt);
      await getService(strapi, 'passkeys').removeAddedSince(row.userId, changedAt);
      await getService(strapi, 'mfa').removeAddedSince(row.userId, changedAt);
      await getService(strapi, 'refresh-token').endAll(row.userId);
    },

    /** Forgets the account's changes (account deletion). */
    async forget(userId: number): Promise<void> {
      await deleteChangesOf(strapi, userId);
    },

    /** Deletes rows past their expiry. */
    async purgeExpired(): Promise<number> {
      return deleteExpiredChanges(strapi, now());
    },
  };
};

export type EmailChangeService = ReturnType<typeof emailChange>;
export default emailChange;
