/** Host error helpers for cases where Strapi's own classes alone do not reach the client as meant. */
import { errors } from '@strapi/utils';

/**
 * A 403 carrying `message`. Strapi's content-API authorize step wraps the rest of the route and turns any
 * ForbiddenError thrown there into a bare "Forbidden", except a PolicyError (a ForbiddenError subclass), which it
 * rethrows for `strapi::errors` to shape. So: a PolicyError, named like the ForbiddenError it stands for.
 */
export const forbidden = (message: string): errors.PolicyError =>
  Object.assign(new errors.PolicyError(message), { name: 'ForbiddenError' as const }) as unknown as errors.PolicyError;
