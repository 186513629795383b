/** A request checked against its shape (features/<feature>/*.shapes.ts): the host's ValidationError naming each field on failure. */
import { errors } from '@strapi/utils';
import type { z } from 'zod/v4';
import { fieldError } from '../errors';
import { MISSING } from './common';
import { isStandalone } from './fields';

/**
 * Two wordings, both in the host's error shape with `details.errors` naming the field:
 * - every issue (the account bodies): each detail's message is `<path> <message>`, and the error's message is the
 *   only issue's, or how many there are;
 * - `first` (the comment, report and moderation inputs, checked one field after the other): one issue, a missing
 *   field before a wrong one, else the first in the shape's order; the error's message is `<path> <message>`, the
 *   detail's the rule alone (as `fieldError` writes it).
 * An issue about the whole input (no path) is the error's message alone. So is one whose message is `standalone`
 * (the unknown locale's, worded as the locales service words it): that one comes first, as that check ran first.
 */
export const parseShape = <S extends z.ZodType>(shape: S, input: unknown, { first = false } = {}): z.output<S> => {
  const result = shape.safeParse(input);
  if (result.success) return result.data;
  // A value of the wrong type gets that one message, not also the checks meant for the right type.
  const mistyped = new Set(result.error.issues.filter((issue) => issue.code === 'invalid_type').map((issue) => issue.path.join('.')));
  const issues = result.error.issues.filter((issue) => issue.code === 'invalid_type' || !mistyped.has(issue.path.join('.')));
  const lone = issues.find((issue) => isStandalone(issue.message));
  if (lone) throw fieldError(lone.path.join('.'), lone.message, lone.message);
  const whole = issues.find((issue) => issue.path.length === 0);
  if (whole) throw new errors.ValidationError(whole.message);
  if (first) {
    const issue = issues.find((candidate) => candidate.message === MISSING) ?? issues[0];
    const path = issue.path.join('.');
    // A custom issue may bring more details (e.g. the allowed values): `params.details`.
    const extra = (issue as { params?: { details?: Record<string, unknown> } }).params?.details ?? {};
    throw fieldError(path, issue.message, `${path} ${issue.message}`, extra);
  }
  const list = issues.map((issue) => {
    const path = issue.path.map(String);
    return { path, message: `${path.join('.')} ${issue.message}`, name: 'ValidationError' };
  });
  throw new errors.ValidationError(list.length === 1 ? list[0].message : `${list.length} errors occurred`, { errors: list });
};
