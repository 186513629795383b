/** Second factors of the signed-in account (Bearer), and the second step of a sign-in (`/auth/login/mfa`). */
import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import type { Context } from 'koa';
import { USER_UID } from '../../platform/uids';
import { requesterOf } from './requester';
import { getService } from '../../platform/get-service';
import { clientInfo } from '../../platform/client';
import {
  validateFinishLoginBody,
  validateMfaCodeBody,
  validateMfaDisableBody,
  validateTotpEnableBody,
  validateTotpSetupBody,
} from './mfa.validation';

/** The Bearer account: the routes are granted to Public too, so a request without a token is a 401 here. */
const signedIn = (ctx: Context): number => {
  const user = ctx.state.user as { id?: unknown } | undefined;
  if (typeof user?.id !== 'number') throw new errors.UnauthorizedError('Missing or invalid credentials');
  return user.id;
};

const mfaController = ({ strapi }: { strapi: Core.Strapi }) => {
  const mfa = () => getService(strapi, 'mfa');
  return {
    async status(ctx: Context) {
      ctx.body = await mfa().status(signedIn(ctx));
    },

    async totpSetup(ctx: Context) {
      const userId = signedIn(ctx);
      ctx.body = await mfa().setup(userId, validateTotpSetupBody(ctx.request.body), requesterOf(ctx));
    },

    async totpEnable(ctx: Context) {
      const userId = signedIn(ctx);
      ctx.body = await mfa().enable(userId, validateTotpEnableBody(ctx.request.body).code, requesterOf(ctx));
    },

    async recoveryCodes(ctx: Context) {
      const userId = signedIn(ctx);
      ctx.body = await mfa().regenerateRecoveryCodes(userId, validateMfaCodeBody(ctx.request.body).mfaCode, requesterOf(ctx));
    },

    async disable(ctx: Context) {
      const userId = signedIn(ctx);
      const body = validateMfaDisableBody(ctx.request.body);
      ctx.body = await mfa().disable(userId, body, body.mfaCode, requesterOf(ctx));
    },

    async finishLogin(ctx: Context) {
      const { mfaToken, code } = validateFinishLoginBody(ctx.request.body);
      const { user, tokens } = await getService(strapi, 'accounts').finishLogin(mfaToken, code, clientInfo(ctx), (seconds) =>
        ctx.set('Retry-After', String(seconds)),
      );
      ctx.body = { ...tokens, user: await strapi.contentAPI.sanitize.output(user, strapi.getModel(USER_UID), { auth: ctx.state.auth }) };
    },
  };
};

export default mfaController;
