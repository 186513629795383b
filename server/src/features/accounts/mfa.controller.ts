/** Second factors of the signed-in account (Bearer), and the second step of a sign-in (`/auth/login/mfa`). */
import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { USER_UID } from '../../platform/uids';
import { requesterOf } from './requester';
import { getService } from '../../platform/get-service';
import { clientInfo } from '../../platform/client';
import { checked } from '../../platform/request-check';
import * as shapes from './mfa.shapes';

/** The Bearer account (the routes' `signed-in` middleware answered 401 without one). */
const signedIn = (ctx: Context): number => (ctx.state.user as { id: number }).id;

const mfaController = ({ strapi }: { strapi: Core.Strapi }) => {
  const mfa = () => getService(strapi, 'mfa');
  return {
    async status(ctx: Context) {
      ctx.body = await mfa().status(signedIn(ctx));
    },

    totpSetup: checked(shapes.totpSetupRequest, async (ctx, { body }) => {
      ctx.body = await mfa().setup(signedIn(ctx), body, requesterOf(ctx));
    }),

    totpEnable: checked(shapes.totpEnableRequest, async (ctx, { body }) => {
      ctx.body = await mfa().enable(signedIn(ctx), body.code, requesterOf(ctx));
    }),

    recoveryCodes: checked(shapes.mfaCodeRequest, async (ctx, { body }) => {
      ctx.body = await mfa().regenerateRecoveryCodes(signedIn(ctx), body.mfaCode, requesterOf(ctx));
    }),

    disable: checked(shapes.mfaDisableRequest, async (ctx, { body }) => {
      ctx.body = await mfa().disable(signedIn(ctx), body, body.mfaCode, requesterOf(ctx));
    }),

    finishLogin: checked(shapes.finishLoginRequest, async (ctx, { body }) => {
      const { user, tokens } = await getService(strapi, 'accounts').finishLogin(body.mfaToken, body.code, clientInfo(ctx), (seconds) =>
        ctx.set('Retry-After', String(seconds)),
      );
      ctx.body = { ...tokens, user: await strapi.contentAPI.sanitize.output(user, strapi.getModel(USER_UID), { auth: ctx.state.auth }) };
    }),
  };
};

export default mfaController;
