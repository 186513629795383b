/** The host's error shapes: the one field ValidationError builder, and what Strapi's own classes alone do not bring to the client as meant (a 503, a 403 with a message). */
import { errors } from '@strapi/utils';

/**
 * A ValidationError naming `field`. `text` is the error's message (by default `message` alone); `extra` goes into
 * the details next to `errors`.
 */
export const fieldError = (field: string, message: string, text: string = message, extra: Record<string, unknown> = {}) =>
  new errors.ValidationError(text, { errors: [{ path: [field], message, name: 'ValidationError' }], ...extra });

/** Throws the field's ValidationError with the message `<field> <message>`. */
export const invalidField = (field: string, message: string, extra: Record<string, unknown> = {}): never => {
  throw fieldError(field, message, `${field} ${message}`, extra);
};

/**
 * An error class of `status` in the host's error shape. The host formats any `errors.HttpError` with its status and
 * message, but http-errors' HttpError cannot be constructed directly, and koa's `ctx.throw` uses another copy of
 * http-errors (not `instanceof` the host's), which the host would turn into a bare 500 without our message.
 */
const httpErrorClass = (status: number, name: string) => {
  class HostHttpError extends Error {
    readonly status = status;
    readonly statusCode = status;
    readonly expose = true;
    readonly details = {};

    constructor(message: string) {
      super(message);
      this.name = name;
    }
  }
  Object.setPrototypeOf(HostHttpError.prototype, errors.HttpError.prototype);
  return HostHttpError;
};

/** A 503 in the host's error shape. */
export const ServiceUnavailableError = httpErrorClass(503, 'ServiceUnavailableError');
export type ServiceUnavailableError = InstanceType<typeof ServiceUnavailableError>;

/** A 409 in the host's error shape (the host's own classes have none). */
export const ConflictError = httpErrorClass(409, 'ConflictError');
export type ConflictError = InstanceType<typeof ConflictError>;

/**
 * A 403 carrying `message`. Strapi's content-API authorize step wraps the rest of the route and turns any
 * ForbiddenError thrown there into a bare "Forbidden", except a PolicyError (a ForbiddenError subclass), which it
 * rethrows for `strapi::errors` to shape. So: a PolicyError, named like the ForbiddenError it stands for.
 */
export const forbidden = (message: string): errors.PolicyError =>
  Object.assign(new errors.PolicyError(message), { name: 'ForbiddenError' as const }) as unknown as errors.PolicyError;
