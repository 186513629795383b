/** Passkeys: the signed-in account registers, lists, renames and removes them (Bearer); anyone signs in with one. */
import type { Core } from '@strapi/strapi';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { Context } from 'koa';
import { USER_UID } from '../../platform/uids';
import { getService } from '../../platform/get-service';
import { clientInfo } from '../../platform/client';
import { checked } from '../../platform/request-check';
import * as shapes from './mfa.shapes';
import { requesterOf } from './requester';

/** The Bearer account (the routes' `signed-in` middleware answered 401 without one). */
const signedIn = (ctx: Context): number => (ctx.state.user as { id: number }).id;

const passkeyController = ({ strapi }: { strapi: Core.Strapi }) => {
  const passkeys = () => getService(strapi, 'passkeys');
  return {
    registerOptions: checked(shapes.passkeyRegisterOptionsRequest, async (ctx, { body }) => {
      ctx.body = await passkeys().registerOptions(signedIn(ctx), body, requesterOf(ctx));
    }),

    registerVerify: checked(shapes.passkeyRegisterRequest, async (ctx, { body }) => {
      ctx.body = await passkeys().registerVerify(signedIn(ctx), body.response as unknown as RegistrationResponseJSON, body.name);
    }),

    async list(ctx: Context) {
      ctx.body = { data: await passkeys().list(signedIn(ctx)) };
    },

    remove: checked(shapes.passkeyRemoveRequest, async (ctx, { params }) => {
      ctx.body = await passkeys().remove(signedIn(ctx), params.id);
    }),

    rename: checked(shapes.passkeyRenameRequest, async (ctx, { params, body }) => {
      ctx.body = await passkeys().rename(signedIn(ctx), params.id, body.name);
    }),

    loginOptions: checked(shapes.passkeyLoginOptionsRequest, async (ctx, { body }) => {
      ctx.body = await passkeys().loginOptions(body.identifier || undefined);
    }),

    loginVerify: checked(shapes.passkeyLoginRequest, async (ctx, { body }) => {
      const { user, tokens } = await passkeys().loginVerify(body.key, body.response as unknown as AuthenticationResponseJSON, clientInfo(ctx));
      ctx.body = { ...tokens, user: await strapi.contentAPI.sanitize.output(user, strapi.getModel(USER_UID), { auth: ctx.state.auth }) };
    }),
  };
};

export default passkeyController;
