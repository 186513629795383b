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
import { checked } from '../../platform/request-check';
import { UNAUTHORIZED } from '../../platform/signed-in.middleware';
import { accountRow } from './users.data';
import * as shapes from './account.shapes';

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

  /** The account behind the Bearer jwt (the `signed-in` middleware's), with its password hash (for re-authentication); 401 once it is gone. */
  const account = async (ctx: Context): Promise<UserRow & { documentId: string }> => {
    const user = await accountRow(strapi, (ctx.state.user as { id: number }).id);
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
    resetPassword: checked(shapes.resetPasswordRequest, async (ctx, { body }) => {
      await getService(strapi, 'password-reset').reset(body, await settings());
      ctx.body = { message: 'Password changed' };
    }),

    loginCode: checked(shapes.loginCodeRequest, async (ctx, { body }) => {
      const config = await settings();
      const { user, tokens, mfa } = await getService(strapi, 'passwordless').login(body, clientInfo(ctx), config);
      ctx.body = mfa ?? { ...tokens, user: await sanitizeUser(user, ctx) };
    }),

    changeEmail: checked(shapes.emailChangeRequest, async (ctx, { body }) => {
      const user = await account(ctx);
      const result = await getService(strapi, 'email-change').request(user, body, requesterOf(ctx), await settings());
      if (!result.sent) {
        ctx.set('Retry-After', String(result.retryAfter));
        throw new errors.RateLimitError();
      }
      ctx.body = { message: 'Verification code sent', expiresIn: result.expiresIn };
    }),

    confirmEmail: checked(shapes.emailConfirmRequest, async (ctx, { body }) => {
      const user = await account(ctx);
      const updated = await getService(strapi, 'email-change').confirm(user, body.code, clientInfo(ctx), await settings());
      ctx.body = await sanitizeUser(updated, ctx);
    }),

    /** The revert link's page: asks for confirmation and changes nothing (mail scanners follow links). */
    revertEmailPage: checked(shapes.revertPageRequest, async (ctx) => {
      await getService(strapi, 'email-change').check(emailRevertTokenOf(ctx));
      sendHtml(
        ctx,
        'Undo the e-mail change',
        '<p>Bring your old e-mail address back and sign out everywhere?</p><form method="post"><button type="submit">Undo the change</button></form>'
      );
    }),

    revertEmail: checked(shapes.revertRequest, async (ctx, { body: token }) => {
      await getService(strapi, 'email-change').revert(token ?? emailRevertTokenOf(ctx));
      const message = 'Your e-mail address is back; every session has ended';
      if (ctx.accepts('json', 'html') === 'html') {
        sendHtml(ctx, 'E-mail change undone', `<p>${escapeHtml(message)}.</p>`);
        return;
      }
      ctx.body = { message };
    }),

    async sessions(ctx: Context) {
      const user = await account(ctx);
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { data: await getService(strapi, 'sessions').list(user.id, await currentSession(ctx)) };
    },

    revokeSession: checked(shapes.sessionRequest, async (ctx, { params }) => {
      const user = await account(ctx);
      await getService(strapi, 'sessions').revoke(user.id, params.id);
      ctx.body = { message: 'Session ended' };
    }),

    async revokeOtherSessions(ctx: Context) {
      const user = await account(ctx);
      const revoked = await getService(strapi, 'sessions').revokeOthers(user.id, await currentSession(ctx));
      ctx.body = { message: 'Other sessions ended', revoked };
    },

    deleteAccount: checked(shapes.deleteAccountRequest, async (ctx, { body }) => {
      const config = await settings();
      const user = await account(ctx);
      await getService(strapi, 'account-deletion').delete(user, body, requesterOf(ctx), config);
      ctx.body = { message: 'Account deleted' };
    }),

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
