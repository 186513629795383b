/**
 * Route middleware for the Bearer routes granted to Public too (a request without a token gets this 401, not the
 * role check's 403): the last of a route's middlewares, so the 401 comes after the rate limit counted the request and
 * before the declared request is checked (platform/request-check.ts), as when the action itself refused.
 */
import { errors } from '@strapi/utils';
import type { Context, Next } from 'koa';

export const UNAUTHORIZED = 'Missing or invalid credentials';

const signedIn = () => async (ctx: Context, next: Next) => {
  if (!ctx.state.user) throw new errors.UnauthorizedError(UNAUTHORIZED);
  await next();
};

export default signedIn;

/** `config.middlewares` entry: put it last. */
export const SIGNED_IN = 'plugin::cms-plugin-bag.signed-in';
