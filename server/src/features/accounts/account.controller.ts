/**
 * The account's self-service routes (docs/accounts.md#your-own-account): password reset and login by e-mailed code,
 * e-mail change, sessions, deletion and export. Bearer routes are granted to Public too, so a request without a
 * token reaches the action and gets this plugin's 401.
 */
import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import type { Context } from 'koa';
import { USER_UID } from '../../platform/uids';
import { emailRevertTokenOf, escapeHtml } from '../comments';
import type { UserRow } from './account.service';
import { SESSION_CLAIM } from './refresh-token';
import { requesterOf } from './requester';
import type { CurrentSession } from './sessions';
import { getService } from '../../platform/get-service';
import { clientInfo } from '../../platform/client';
import {
  revertTokenOf,
  validateDeleteAccountBody,
  validateEmailChangeBody,
  validateEmailConfirmBody,
  validateLoginCodeBody,
  validateResetPasswordBody,
} from './account.validation';

const UNAUTHORIZED = 'Missing or invalid credentials';

/** The URL holds the token: no caching, and no Referer carrying it anywhere. */
const sendHtml = (ctx: Context, title: string, body: string) => {
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.type = 'text/html; charset=utf-8';
  ctx.body =
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title></head><body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;
};

const accountController = ({ strapi }: { strapi: Core.Strapi }) => {
  const settings = () => getService(strapi, 'settings').get();
  const sanitizeUser = (user: object, ctx: Context) => strapi.contentAPI.sanitize.output(user, strapi.getModel(USER_UID), { auth: ctx.state.auth });

  /** The account behind the Bearer jwt, with its password hash (for re-authentication); 401 without one. */
  const account = async (ctx: Context): Promise<UserRow & { documentId: string }> => {
    const authUser = ctx.state.user as { id: number } | undefined;
    if (!authUser) throw new errors.UnauthorizedError(UNAUTHORIZED);
    const user = (await strapi.db.query(USER_UID).findOne({ where: { id: authUser.id } })) as (UserRow & { documentId: string }) | null;
    if (!user) throw new errors.UnauthorizedError(UNAUTHORIZED);
    return user;
  };

  /** The session the Bearer jwt came from: the host's session in 'refresh' mode, the plugin's claim in legacy mode. */
  const currentSession = async (ctx: Context): Promise<CurrentSession> => {
    const hostSession = (ctx.state.session as { id?: unknown } | undefined)?.id;
    if (typeof hostSession === 'string') return { hostSession };
    const header = ctx.get('authorization');
    const match = /^bearer\s+(\S+)$/i.exec(header);
    if (!match) return {};
    try {
      const payload = (await strapi.plugin('users-permissions').service('jwt').verify(match[1])) as Record<string, unknown>;
      const row = payload[SESSION_CLAIM];
      return typeof row === 'number' ? { row } : {};
    } catch {
      return {};
    }
  };

  return {
    async resetPassword(ctx: Context) {
      const body = await validateResetPasswordBody(ctx.request.body);
      await getService(strapi, 'password-reset').reset(body, await settings());
      ctx.body = { message: 'Password changed' };
    },

    async loginCode(ctx: Context) {
      const config = await settings();
      getService(strapi, 'passwordless').assertEnabled(config);
      const body = validateLoginCodeBody(ctx.request.body);
      const { user, tokens, mfa } = await getService(strapi, 'passwordless').login(body, clientInfo(ctx), config);
      ctx.body = mfa ?? { ...tokens, user: await sanitizeUser(user, ctx) };
    },

    async changeEmail(ctx: Context) {
      const user = await account(ctx);
      const body = validateEmailChangeBody(ctx.request.body);
      const result = await getService(strapi, 'email-change').request(user, body, requesterOf(ctx), await settings());
      if (!result.sent) {
        ctx.set('Retry-After', String(result.retryAfter));
        throw new errors.RateLimitError();
      }
      ctx.body = { message: 'Verification code sent', expiresIn: result.expiresIn };
    },

    async confirmEmail(ctx: Context) {
      const user = await account(ctx);
      const { code } = validateEmailConfirmBody(ctx.request.body);
      const updated = await getService(strapi, 'email-change').confirm(user, code, clientInfo(ctx), await settings());
      ctx.body = await sanitizeUser(updated, ctx);
    },

    /** The revert link's page: asks for confirmation and changes nothing (mail scanners follow links). */
    async revertEmailPage(ctx: Context) {
      await getService(strapi, 'email-change').check(emailRevertTokenOf(ctx));
      sendHtml(
        ctx,
        'Undo the e-mail change',
        '<p>Bring your old e-mail address back and sign out everywhere?</p><form method="post"><button type="submit">Undo the change</button></form>'
      );
    },

    async revertEmail(ctx: Context) {
      await getService(strapi, 'email-change').revert(revertTokenOf(ctx.request.body, emailRevertTokenOf(ctx)));
      const message = 'Your e-mail address is back; every session has ended';
      if (ctx.accepts('json', 'html') === 'html') {
        sendHtml(ctx, 'E-mail change undone', `<p>${escapeHtml(message)}.</p>`);
        return;
      }
      ctx.body = { message };
    },

    async sessions(ctx: Context) {
      const user = await account(ctx);
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { data: await getService(strapi, 'sessions').list(user.id, await currentSession(ctx)) };
    },

    async revokeSession(ctx: Context) {
      const user = await account(ctx);
      await getService(strapi, 'sessions').revoke(user.id, String(ctx.params.id));
      ctx.body = { message: 'Session ended' };
    },

    async revokeOtherSessions(ctx: Context) {
      const user = await account(ctx);
      const revoked = await getService(strapi, 'sessions').revokeOthers(user.id, await currentSession(ctx));
      ctx.body = { message: 'Other sessions ended', revoked };
    },

    async deleteAccount(ctx: Context) {
      const config = await settings();
      const user = await account(ctx);
      getService(strapi, 'account-deletion').assertEnabled(config);
      const body = validateDeleteAccountBody(ctx.request.body);
      await getService(strapi, 'account-deletion').delete(user, body, requesterOf(ctx), config);
      ctx.body = { message: 'Account deleted' };
    },

    async exportAccount(ctx: Context) {
      const user = await account(ctx);
      const shown = (await sanitizeUser(await getService(strapi, 'accounts').findUser(user.id) ?? user, ctx)) as never;
      const data = await getService(strapi, 'account-export').export(user, shown, clientInfo(ctx));
      ctx.set('Cache-Control', 'no-store');
      ctx.set('Content-Disposition', `attachment; filename="account-${user.documentId}.json"`);
      ctx.type = 'application/json; charset=utf-8';
      ctx.body = JSON.stringify(data, null, 2);
    },
  };
};

export default accountController;
