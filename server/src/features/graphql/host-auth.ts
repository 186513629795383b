/**
 * `auth.hostRoutes: 'guarded'`: the host's GraphQL `login`, `register` and `forgotPassword` mutations get what the
 * plugin puts on the host's `POST /api/auth/local`, `/api/auth/local/register` and `/api/auth/forgot-password`
 * (host-auth-routes.ts): the same rate limits, on the same counters, and the same captcha. Login and register read it
 * from `key` and `code` added to their input types, taken out before the host's resolver sees them; forgotPassword's
 * arguments cannot carry one, so it is refused while its captcha is on. The login refuses an account with a second
 * factor (as the REST route), and `resetPassword` and `emailConfirmation` answer such an account with a null `jwt`. `'open'`: the mutations are left as the host
 * made them.
 */
import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { checkHostCaptcha, HOST_AUTH_LIMITS, hostAuthGuarded } from '../accounts';
import { countRequest } from '../../platform/rate-limit.middleware';
import type { HostAuthRoute } from '../../platform/auth';
import { getService } from '../../platform/get-service';
import { clientInfo } from '../../platform/client';
import type { Args, Nexus, ResolverMiddleware } from './nexus';

interface GuardedMutation {
  mutation: string;
  route: HostAuthRoute;
  /** The input type the captcha fields are added to. */
  input?: string;
  /** The fields as the REST route's body has them, and the arguments rebuilt from them (captcha fields taken out). */
  fields: (args: Args) => Record<string, unknown>;
  args: (args: Args, fields: Record<string, unknown>) => Args;
}

const inInput = { fields: (args: Args) => ({ ...(args.input as Record<string, unknown>) }), args: (args: Args, input: Record<string, unknown>) => ({ ...args, input }) };

const MUTATIONS: GuardedMutation[] = [
  { mutation: 'login', route: 'login', input: 'UsersPermissionsLoginInput', ...inInput },
  { mutation: 'register', route: 'register', input: 'UsersPermissionsRegisterInput', ...inInput },
  { mutation: 'forgotPassword', route: 'forgotPassword', fields: (args) => ({ email: args.email }), args: (args) => args },
];

const guarded =
  (strapi: Core.Strapi, { route, fields: fieldsOf, args: argsOf }: GuardedMutation): ResolverMiddleware =>
  (resolve, parent, args, context, info) => {
    const { koaContext } = context as { koaContext: Context };
    // A copy: the captcha check takes `key` and `code` out, the host refuses fields it does not know.
    const fields = fieldsOf(args);
    const request = {
      ip: clientInfo(koaContext).ip,
      body: fields,
      setRetryAfter: (seconds: number) => koaContext.set('Retry-After', String(seconds)),
    };
    return countRequest(strapi, HOST_AUTH_LIMITS[route], request, async (escalated) => {
      await checkHostCaptcha(strapi, route, fields, escalated);
      return resolve(parent, argsOf(args, fields), context, info);
    });
  };

/** Mutations that answer a jwt without a password check of their own (the REST routes' `host-mfa` middleware). */
const TOKEN_MUTATIONS = ['resetPassword', 'emailConfirmation'];

const tokensWithheld =
  (strapi: Core.Strapi): ResolverMiddleware =>
  async (resolve, parent, args, context, info) =>
    getService(strapi, 'mfa').withholdTokens(await resolve(parent, args, context, info));

export const guardHostAuthMutations = (strapi: Core.Strapi): void => {
  if (!hostAuthGuarded(strapi)) return;
  strapi.plugin('graphql').service('extension').use(({ nexus }: { nexus: Nexus }) => ({
    types: MUTATIONS.flatMap(({ input }) =>
      input
        ? [
            nexus.extendInputType({
              type: input,
              definition(t) {
                t.string('key', { description: 'Image captcha: the key from GET /api/cms-plugin-bag/auth/captcha-image (cms-plugin-bag)' });
                t.string('code', { description: 'Captcha: the image text or the e-mail code (cms-plugin-bag)' });
              },
            }),
          ]
        : [],
    ),
    resolversConfig: {
      ...Object.fromEntries(MUTATIONS.map((mutation) => [`Mutation.${mutation.mutation}`, { middlewares: [guarded(strapi, mutation)] }])),
      ...Object.fromEntries(TOKEN_MUTATIONS.map((mutation) => [`Mutation.${mutation}`, { middlewares: [tokensWithheld(strapi)] }])),
    },
  }));
};
