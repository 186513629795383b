/** A request checked against its shape (domain/shapes): the host's ValidationError naming each field on failure. */
import { errors } from '@strapi/utils';
import type { z } from 'zod/v4';

interface FieldError {
  path: string[];
  message: string;
  name: 'ValidationError';
}

/**
 * Each issue becomes `{ path, message: '<path> <message>' }`; the error's message is the only issue's, or how many
 * there are. An issue about the whole input (no path) is the error's message alone. `first` keeps the first issue,
 * for shapes whose fields are checked one after the other.
 */
export const parseShape = <S extends z.ZodType>(shape: S, input: unknown, { first = false } = {}): z.output<S> => {
  const result = shape.safeParse(input);
  if (result.success) return result.data;
  // A value of the wrong type gets that one message, not also the checks meant for the right type.
  const mistyped = new Set(result.error.issues.filter((issue) => issue.code === 'invalid_type').map((issue) => issue.path.join('.')));
  const relevant = result.error.issues.filter((issue) => issue.code === 'invalid_type' || !mistyped.has(issue.path.join('.')));
  const issues = first ? relevant.slice(0, 1) : relevant;
  const whole = issues.find((issue) => issue.path.length === 0);
  if (whole) throw new errors.ValidationError(whole.message);
  const list: FieldError[] = issues.map((issue) => {
    const path = issue.path.map(String);
    return { path, message: `${path.join('.')} ${issue.message}`, name: 'ValidationError' };
  });
  throw new errors.ValidationError(list.length === 1 ? list[0].message : `${list.length} errors occurred`, { errors: list });
};
