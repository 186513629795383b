/** What the report shape cannot say: `reason` from the configured `comments.reports.reasons`. */
import type { ReportInput } from './comment-vocabulary';
import { invalidField as invalid } from '../../platform/errors';
import { reportBody } from './comment-feedback.shapes';
import { isRecord } from '../../platform/is-record';
import { parseShape } from '../../platform/shapes/parse';

/** POST /bag/comments/:id/report: `reason` from `comments.reports.reasons`, optional `details`; nothing else is read. */
export const validateReportBody = (body: unknown, reasons: readonly string[]): ReportInput => {
  const input = isRecord(body) ? body : {};
  if (typeof input.reason !== 'string' || !reasons.includes(input.reason)) {
    invalid('reason', `must be one of ${reasons.join(', ')}`, { allowed: [...reasons] });
  }
  const { reason, details } = parseShape(reportBody, input, { first: true });
  return details === undefined || details === null || details === '' ? { reason } : { reason, details };
};
