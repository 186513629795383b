/** Errors the host's error middleware shapes for statuses its own classes do not cover. */
import { errors } from '@strapi/utils';

/**
 * A 503 in the host's error shape. The host formats any `errors.HttpError` with its status and message, but
 * http-errors' HttpError cannot be constructed directly, and koa's `ctx.throw` uses another copy of http-errors
 * (not `instanceof` the host's), which the host would turn into a bare 500/503 without our message.
 */
export class ServiceUnavailableError extends Error {
  readonly status = 503;
  readonly statusCode = 503;
  readonly expose = true;
  readonly details = {};

  constructor(message: string) {
    super(message);
    this.name = 'ServiceUnavailableError';
  }
}
Object.setPrototypeOf(ServiceUnavailableError.prototype, errors.HttpError.prototype);
