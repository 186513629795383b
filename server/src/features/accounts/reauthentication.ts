/**
 * Re-authentication before a sensitive action of a signed-in account (an e-mail change, deleting the account, adding
 * a second factor or a passkey): its password (plain or `encryptedPassword`), or, where the action allows it, an
 * e-mail code sent to the account's address for that action. A password try counts as a login of the account: per
 * client IP and on the account's failed-login counter, with the same limits and escalation as `/auth/login` (past the
 * max: 429 with `details.captcha: 'required'`), and a right password gives its hit back. The second factor an action
 * needs is the caller's next step (`mfa.requireSecondFactor`).
 */
import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import type { PluginConfig } from '../../platform/config/schema';
import type { ReauthInput } from './account.shapes';
import type { CodePurpose } from './auth.shapes';
import { rateLimitAddress, type ClientInfo } from '../../platform/client';
import { getService } from '../../platform/get-service';
import { ACCOUNT_ERRORS, type UserRow } from './account.service';

export const INVALID_PASSWORD = 'Invalid password';

/** The request behind an action: who sent it, and how to tell it when to retry (a 429's Retry-After). */
export interface Requester {
  client: ClientInfo;
  setRetryAfter(seconds: number): void;
}

const reauthentication = ({ strapi }: { strapi: Core.Strapi }) => ({
  /**
   * Throws unless `input` proves `user` is at the keyboard; `codePurpose`: an e-mail code sent to the account's
   * address for that purpose will do in place of the password.
   */
  async confirm(
    user: UserRow,
    input: ReauthInput,
    requester: Requester,
    config: PluginConfig,
    { codePurpose }: { codePurpose?: CodePurpose } = {}
  ): Promise<void> {
    const hasPassword = input.password !== undefined || input.encryptedPassword !== undefined;
    if (!hasPassword && codePurpose !== undefined && input.code !== undefined) {
      if (!(await getService(strapi, 'email-code').verify(user.email, input.code, codePurpose, config))) {
        throw new errors.ValidationError(ACCOUNT_ERRORS.captchaInvalid);
      }
      return;
    }
    const accounts = getService(strapi, 'accounts');
    const password = await accounts.clearPassword(input, config);
    const limiter = getService(strapi, 'rate-limit');
    const refuse = (retryAfter: number, details?: Record<string, unknown>): never => {
      requester.setRetryAfter(retryAfter);
      throw new errors.RateLimitError(undefined, details);
    };
    const byIp = await limiter.check('login', `ip:${rateLimitAddress(requester.client.ip)}`, config);
    if (!byIp.allowed) refuse(byIp.retryAfter);
    const subject = `user:${user.id}`;
    const byAccount = await limiter.check('login', subject, config);
    if (!byAccount.allowed) refuse(byAccount.retryAfter, { captcha: 'required' });
    if (!(await accounts.passwordMatches(password, user.password))) throw new errors.ValidationError(INVALID_PASSWORD);
    await limiter.giveBack('login', subject, config);
  },
});

export type ReauthenticationService = ReturnType<typeof reauthentication>;
export default reauthentication;
