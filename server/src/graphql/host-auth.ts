/**
 * `auth.hostRoutes: 'guarded'`: the host's GraphQL `login` and `register` mutations get what the plugin puts on the
 * host's `POST /api/auth/local` and `/api/auth/local/register` (host-auth-routes.ts): the same rate limits, on the
 * same counters, and the same captcha, read from `key` and `code` added to the mutations' input types and taken out
 * before the host's resolver sees them. `'open'`: the mutations are left as the host made them.
 */
import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { HOST_AUTH_LIMITS, hostAuthGuarded } from '../host-auth-routes';
import { checkHostCaptcha } from '../middlewares/host-auth';
import { countRequest } from '../middlewares/rate-limit';
import type { HostAuthRoute } from '../services/accounts';
import { clientInfo } from '../utils/client';
import type { Nexus, ResolverMiddleware } from './nexus';

const MUTATIONS: Array<{ mutation: string; input: string; route: HostAuthRoute }> = [
  { mutation: 'login', input: 'UsersPermissionsLoginInput', route: 'login' },
  { mutation: 'register', input: 'UsersPermissionsRegisterInput', route: 'register' },
];

const guarded =
  (strapi: Core.Strapi, route: HostAuthRoute): ResolverMiddleware =>
  (resolve, parent, args, context, info) => {
    const { koaContext } = context as { koaContext: Context };
    // A copy: the captcha check takes `key` and `code` out, the host refuses fields it does not know.
    const input = { ...(args.input as Record<string, unknown>) };
    const request = {
      ip: clientInfo(koaContext).ip,
      body: input,
      setRetryAfter: (seconds: number) => koaContext.set('Retry-After', String(seconds)),
    };
    return countRequest(strapi, HOST_AUTH_LIMITS[route], request, async (escalated) => {
      await checkHostCaptcha(strapi, route, input, escalated);
      return resolve(parent, { ...args, input }, context, info);
    });
  };

export const guardHostAuthMutations = (strapi: Core.Strapi): void => {
  if (!hostAuthGuarded(strapi)) return;
  strapi.plugin('graphql').service('extension').use(({ nexus }: { nexus: Nexus }) => ({
    types: MUTATIONS.map(({ input }) =>
      nexus.extendInputType({
        type: input,
        definition(t) {
          t.string('key', { description: 'Image captcha: the key from GET /api/cms-plugin-bag/auth/captcha-image (cms-plugin-bag)' });
          t.string('code', { description: 'Captcha: the image text or the e-mail code (cms-plugin-bag)' });
        },
      }),
    ),
    resolversConfig: Object.fromEntries(MUTATIONS.map(({ mutation, route }) => [`Mutation.${mutation}`, { middlewares: [guarded(strapi, route)] }])),
  }));
};
