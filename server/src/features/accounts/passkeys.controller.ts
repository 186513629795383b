/** Passkeys: the signed-in account registers, lists, renames and removes them (Bearer); anyone signs in with one. */
import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { Context } from 'koa';
import { USER_UID } from '../../platform/uids';
import { getService } from '../../platform/get-service';
import { clientInfo } from '../../platform/client';
import {
  validatePasskeyLoginBody,
  validatePasskeyLoginOptionsBody,
  validatePasskeyRegisterBody,
  validatePasskeyRegisterOptionsBody,
  validatePasskeyRenameBody,
} from './mfa.validation';
import { requesterOf } from './requester';

/** The Bearer account: the routes are granted to Public too, so a request without a token is a 401 here. */
const signedIn = (ctx: Context): number => {
  const user = ctx.state.user as { id?: unknown } | undefined;
  if (typeof user?.id !== 'number') throw new errors.UnauthorizedError('Missing or invalid credentials');
  return user.id;
};

const passkeyController = ({ strapi }: { strapi: Core.Strapi }) => {
  const passkeys = () => getService(strapi, 'passkeys');
  return {
    async registerOptions(ctx: Context) {
      const userId = signedIn(ctx);
      ctx.body = await passkeys().registerOptions(userId, validatePasskeyRegisterOptionsBody(ctx.request.body), requesterOf(ctx));
    },

    async registerVerify(ctx: Context) {
      const userId = signedIn(ctx);
      const { response, name } = validatePasskeyRegisterBody(ctx.request.body);
      ctx.body = await passkeys().registerVerify(userId, response as unknown as RegistrationResponseJSON, name);
    },

    async list(ctx: Context) {
      ctx.body = { data: await passkeys().list(signedIn(ctx)) };
    },

    async remove(ctx: Context) {
      const userId = signedIn(ctx);
      ctx.body = await passkeys().remove(userId, String(ctx.params.id));
    },

    async rename(ctx: Context) {
      const userId = signedIn(ctx);
      const { name } = validatePasskeyRenameBody(ctx.request.body);
      ctx.body = await passkeys().rename(userId, String(ctx.params.id), name);
    },

    async loginOptions(ctx: Context) {
      ctx.body = await passkeys().loginOptions(validatePasskeyLoginOptionsBody(ctx.request.body).identifier || undefined);
    },

    async loginVerify(ctx: Context) {
      const { key, response } = validatePasskeyLoginBody(ctx.request.body);
      const { user, tokens } = await passkeys().loginVerify(key, response as unknown as AuthenticationResponseJSON, clientInfo(ctx));
      ctx.body = { ...tokens, user: await strapi.contentAPI.sanitize.output(user, strapi.getModel(USER_UID), { auth: ctx.state.auth }) };
    },
  };
};

export default passkeyController;
