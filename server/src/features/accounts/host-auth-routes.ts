/**
 * `auth.hostRoutes: 'guarded'` (the default): the host's own `POST /api/auth/local`, `/api/auth/local/register` and
 * `/api/auth/forgot-password` get the rate limits and the captcha of the plugin's routes, so they are no way around
 * them; its login refuses an account with a second factor, and its reset-password, e-mail confirmation and provider
 * callback answer such an account without a token (docs/accounts.md lists every route that can issue a jwt). Done in register(), before Strapi mounts routes: users-permissions keeps its content-API routes in one shared
 * array (`routes['content-api'].routes`, kept mutable by Strapi for extensions), whose route configs take our
 * middlewares ahead of the host's own.
 */
import type { Core } from '@strapi/strapi';
import type { HostAuthRoute } from '../../platform/auth';
import { PLUGIN_ID } from '../../platform/plugin-id';
import { HOST_AUTH_LIMITS, hostAuthGuarded, type HostAuthMiddlewareConfig } from './host-auth.middleware';
import { rateLimited } from '../../platform/route-types';

interface HostRoute {
  method: string;
  path: string;
  config?: { middlewares?: unknown[] } & Record<string, unknown>;
}

const captchaChecked = (route: HostAuthMiddlewareConfig['route']) => ({
  name: `plugin::${PLUGIN_ID}.host-auth`,
  config: { route } satisfies HostAuthMiddlewareConfig,
});

const guards = (route: HostAuthRoute) => {
  const { limit, identifierField, escalate } = HOST_AUTH_LIMITS[route];
  return [rateLimited(limit, identifierField, escalate), captchaChecked(route)];
};

/** After the host's handler: an account with a second factor gets no token from a route that checks no password. */
const tokensWithheld = { name: `plugin::${PLUGIN_ID}.host-mfa`, config: {} };

const GUARDS: Record<string, unknown[]> = {
  'POST /auth/local': guards('login'),
  'POST /auth/local/register': guards('register'),
  'POST /auth/forgot-password': guards('forgotPassword'),
  'POST /auth/reset-password': [tokensWithheld],
  'GET /auth/email-confirmation': [tokensWithheld],
  'GET /auth/:provider/callback': [tokensWithheld],
};

const isOurs = (middleware: unknown) =>
  typeof middleware === 'object' &&
  middleware !== null &&
  String((middleware as { name?: unknown }).name).startsWith(`plugin::${PLUGIN_ID}.`);

export const guardHostAuthRoutes = (strapi: Core.Strapi) => {
  const guarded = hostAuthGuarded(strapi);
  const routers = strapi.plugin('users-permissions').routes as Record<string, { routes?: HostRoute[] } | undefined>;
  const unguarded = new Set(Object.keys(GUARDS));
  for (const route of routers['content-api']?.routes ?? []) {
    const key = `${route.method} ${route.path}`;
    if (!unguarded.delete(key)) continue;
    // The array outlives this Strapi instance (it is the host module's, cached by require): a second instance in the
    // same process (tests, restarts) finds our middlewares from the first and must neither stack nor keep them.
    const hostOwn = (route.config?.middlewares ?? []).filter((middleware) => !isOurs(middleware));
    route.config = { ...route.config, middlewares: guarded ? [...GUARDS[key], ...hostOwn] : hostOwn };
  }
  if (guarded && unguarded.size > 0) {
    const missing = [...unguarded].join(', ');
    strapi.log.warn(`cms-plugin-bag: auth.hostRoutes 'guarded': users-permissions has no route ${missing} to guard`);
  }
};
