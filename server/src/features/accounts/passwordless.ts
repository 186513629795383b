/**
 * Login by e-mailed code alone (`account.passwordless.enabled`): the code `/auth/send-code` sent to the address is
 * both the proof and the captcha. Counted like `/auth/login` (its route shares login's counters and escalation); a
 * right code for an address without a local account is used up and answered like a wrong one.
 */
import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import type { PluginConfig } from '../../platform/config/schema';
import { forbidden } from '../../platform/errors';
import type { LoginCodeBody } from './account.shapes';
import type { ClientInfo } from '../../platform/client';
import { getService } from '../../platform/get-service';
import { ACCOUNT_ERRORS, type SignIn } from './account.service';

export const PASSWORDLESS_DISABLED = 'Passwordless login is disabled';

const passwordless = ({ strapi }: { strapi: Core.Strapi }) => ({
  assertEnabled(config: PluginConfig): void {
    if (!config.account.passwordless.enabled) throw forbidden(PASSWORDLESS_DISABLED);
  },

  /** The tokens, or for an account with a second factor the challenge `/auth/login/mfa` finishes. */
  async login(body: LoginCodeBody, client: ClientInfo, config: PluginConfig): Promise<SignIn> {
    this.assertEnabled(config);
    if (!(await getService(strapi, 'email-code').verify(body.identifier, body.code, 'login-code', config))) {
      throw new errors.ValidationError(ACCOUNT_ERRORS.captchaInvalid);
    }
    const accounts = getService(strapi, 'accounts');
    const user = await accounts.findByEmail(body.identifier);
    if (!user) throw new errors.ValidationError(ACCOUNT_ERRORS.captchaInvalid);
    const settings = await accounts.advancedSettings();
    if (settings.email_confirmation && user.confirmed !== true) throw new errors.ApplicationError(ACCOUNT_ERRORS.unconfirmed);
    if (user.blocked === true) throw new errors.ApplicationError(ACCOUNT_ERRORS.blocked);
    return accounts.signIn(user, client, config, 'code');
  },
});

export type PasswordlessService = ReturnType<typeof passwordless>;
export default passwordless;
