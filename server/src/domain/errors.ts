/** The one builder of the host's field ValidationError (400), in the shape its own yup errors have. */
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
