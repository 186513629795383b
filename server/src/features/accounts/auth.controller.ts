import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import type { Context } from 'koa';
import { captchaEscalated } from '../../platform/auth';
import { USER_UID } from '../../platform/uids';
import { clientInfo } from '../../platform/client';
import { getService } from '../../platform/get-service';
import { checked } from '../../platform/request-check';
import * as shapes from './auth.shapes';
import { requiredKinds } from './credentials';

const authController = ({ strapi }: { strapi: Core.Strapi }) => {
  /** The user as `/api/users/me` shows it: the host's own output sanitizer drops private fields. */
  const sanitizeUser = (user: object, ctx: Context) =>
    strapi.contentAPI.sanitize.output(user, strapi.getModel(USER_UID), { auth: ctx.state.auth });

  return {
    /** The kinds of captcha the login (escalation aside) and the registration ask for now: `[]` when off. */
    async captchaKinds(ctx: Context) {
      const config = await getService(strapi, 'settings').get();
      ctx.body = { login: [...(requiredKinds(config.login.captcha) ?? [])], register: [...(requiredKinds(config.register.captcha) ?? [])] };
    },

    async captchaImage(ctx: Context) {
      ctx.body = await getService(strapi, 'captcha').createImage(await getService(strapi, 'settings').get());
    },

    async captchaPow(ctx: Context) {
      ctx.body = await getService(strapi, 'captcha').createPow(await getService(strapi, 'settings').get());
    },

    sendCode: checked(shapes.sendCodeRequest, async (ctx, { body }) => {
      const result = await getService(strapi, 'email-code').send(body.identifier, await getService(strapi, 'settings').get(), body.purpose);
      if (!result.sent) {
        ctx.set('Retry-After', String(result.retryAfter));
        throw new errors.RateLimitError();
      }
      ctx.body = { message: 'Verification code sent', expiresIn: result.expiresIn };
    }),

    register: checked(shapes.registerRequest, async (ctx, { body }) => {
      const { user, tokens } = await getService(strapi, 'accounts').register(body, clientInfo(ctx));
      ctx.body = { ...tokens, user: await sanitizeUser(user, ctx) };
    }),

    login: checked(shapes.loginRequest, async (ctx, { body }) => {
      const { user, tokens, mfa } = await getService(strapi, 'accounts').login(body, clientInfo(ctx), captchaEscalated(ctx));
      ctx.body = mfa ?? { ...tokens, user: await sanitizeUser(user, ctx) };
    }),

    refreshToken: checked(shapes.refreshTokenRequest, async (ctx, { body: token }) => {
      ctx.body = { jwt: await getService(strapi, 'accounts').refresh(token) };
    }),

    logout: checked(shapes.refreshTokenRequest, async (ctx, { body: token }) => {
      await getService(strapi, 'refresh-token').revoke(token);
      ctx.body = { message: 'Logged out' };
    }),

    async me(ctx: Context) {
      const authUser = ctx.state.user as { id: number } | undefined;
      // The route is granted to Public too, so a request without a token reaches this point: without a user it is a 401.
      if (!authUser) throw new errors.UnauthorizedError('Missing or invalid credentials');
      const user = await getService(strapi, 'accounts').findUser(authUser.id);
      if (!user) throw new errors.UnauthorizedError('Missing or invalid credentials');
      ctx.body = await sanitizeUser(user, ctx);
    },
  };
};

export default authController;
