/**
 * Password reset by e-mailed code: the code `/auth/send-code` sent to the address proves the mailbox, the new password
 * passes the host's rules and hashing (its user service), and every session of the account ends. No token is issued:
 * the account signs in again, through every factor it has.
 */
import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import type { PluginConfig } from '../../platform/config/schema';
import type { ResetPasswordBody } from './account.shapes';
import { getService } from '../../platform/get-service';
import { ACCOUNT_ERRORS } from './account.service';

const passwordReset = ({ strapi }: { strapi: Core.Strapi }) => ({
  /**
   * Order: the new password (decrypted, the host's rules) → the code (consumed) → the account. A right code for an
   * address without a local account is used up and answered like a wrong one, so the route does not tell which
   * addresses have accounts.
   */
  async reset(body: ResetPasswordBody, config: PluginConfig): Promise<void> {
    const accounts = getService(strapi, 'accounts');
    const password = await accounts.clearPassword(body, config);
    await accounts.checkNewPassword(password);
    if (!(await getService(strapi, 'email-code').verify(body.identifier, body.code, 'reset', config))) {
      throw new errors.ValidationError(ACCOUNT_ERRORS.captchaInvalid);
    }
    const user = await accounts.findByEmail(body.identifier);
    if (!user) throw new errors.ValidationError(ACCOUNT_ERRORS.captchaInvalid);
    if (user.blocked === true) throw new errors.ApplicationError(ACCOUNT_ERRORS.blocked);
    // The host's user service hashes the password (the Document Service does), and the user lifecycle revokes the
    // refresh tokens; endAll also ends the host's own sessions in 'refresh' mode.
    await strapi.plugin('users-permissions').service('user').edit(user.id, { password });
    await getService(strapi, 'refresh-token').endAll(user.id);
  },
});

export type PasswordResetService = ReturnType<typeof passwordReset>;
export default passwordReset;
