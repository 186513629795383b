/**
 * Access tokens die with their session (features/accounts/access-tokens.ts), on every route that reads the caller: the
 * plugin's, the host's (`/api/users/me`) and GraphQL's. Every content-API request is authenticated through
 * `strapi.get('auth').authenticate` (the routes' endpoint composer and the GraphQL route both look it up per request),
 * so that is where the check sits: once the host's users-permissions strategy has accepted a jwt, and before the
 * request goes on, a jwt whose session has ended gets the answer the host gives an invalid one (401 `Missing or
 * invalid credentials`). Done in register(), whatever the plugins' order (the strategy itself is registered by
 * users-permissions, which may come after this plugin).
 *
 * Legacy mode: every jwt the host's jwt service signs carries the instant it was issued in milliseconds
 * (`bagIssuedAt`), so a jwt the host issues right after an account-wide sign-out (its change-password and
 * reset-password answer with one) is not taken for one issued before it, as its `iat` (whole seconds) would be.
 */
import type { Core } from '@strapi/strapi';
import type { Context, Next } from 'koa';
import { claimsOf, ISSUED_CLAIM } from './access-tokens';
import { getService } from '../../platform/get-service';

const UNAUTHORIZED = 'Missing or invalid credentials';

interface AuthService {
  authenticate(ctx: Context, next: Next): Promise<unknown>;
}

interface JwtService {
  issue(payload: Record<string, unknown> & { toJSON?: () => Record<string, unknown> }, options?: unknown): unknown;
}

/** The Bearer token as the host's jwt service reads it (`getToken`). */
const bearerOf = (ctx: Context): string | undefined => {
  const parts = String(ctx.request.header.authorization ?? '').split(/\s+/);
  return parts.length === 2 && parts[0].toLowerCase() === 'bearer' ? parts[1] : undefined;
};

const stillValid = async (strapi: Core.Strapi, ctx: Context): Promise<boolean> => {
  const auth = ctx.state.auth as { strategy?: { name?: string }; credentials?: { id?: unknown } | null } | undefined;
  const userId = auth?.credentials?.id;
  // Another strategy (an API token), or the Public role: nothing to check.
  if (auth?.strategy?.name !== 'users-permissions' || typeof userId !== 'number') return true;
  const token = bearerOf(ctx);
  const claims = token ? claimsOf(token) : null;
  return claims !== null && (await getService(strapi, 'access-tokens').accepts(claims, userId));
};

export const checkAccessTokens = (strapi: Core.Strapi) => {
  const auth = strapi.get('auth') as AuthService;
  const authenticate = auth.authenticate.bind(auth);
  auth.authenticate = (ctx, next) =>
    authenticate(ctx, async () => {
      if (await stillValid(strapi, ctx)) return next();
      for (const key of ['auth', 'user', 'session', 'isAuthenticated']) delete ctx.state[key];
      return (ctx as Context & { unauthorized(message: string): unknown }).unauthorized(UNAUTHORIZED);
    });

  const jwt = strapi.plugin('users-permissions').service('jwt') as JwtService;
  const issue = jwt.issue.bind(jwt);
  jwt.issue = (payload, options) => {
    const legacy = strapi.config.get<string>('plugin::users-permissions.jwtManagement', 'legacy-support') !== 'refresh';
    if (!legacy) return issue(payload, options);
    const plain = typeof payload.toJSON === 'function' ? payload.toJSON() : { ...payload };
    return issue({ ...plain, [ISSUED_CLAIM]: getService(strapi, 'clock').now() }, options);
  };
};
