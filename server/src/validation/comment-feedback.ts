/** Input checks for likes and reports (controllers/comment-feedback.ts); each throws the host's ValidationError naming the field. */
import type { ReportInput } from '../domain/comments';
import { invalidField as invalid } from '../domain/errors';
import { isRecord } from '../utils/is-record';

export const REPORT_DETAILS_MAX_LENGTH = 1000;


/** POST /bag/comments/:id/report: `reason` from `comments.reports.reasons`, optional `details`; nothing else is read. */
export const validateReportBody = (body: unknown, reasons: readonly string[]): ReportInput => {
  const input = isRecord(body) ? body : {};
  const { reason, details } = input;
  if (typeof reason !== 'string' || !reasons.includes(reason)) {
    invalid('reason', `must be one of ${reasons.join(', ')}`, { allowed: [...reasons] });
  }
  if (details === undefined || details === null) return { reason: reason as string };
  if (typeof details !== 'string') return invalid('details', 'must be a string');
  const text = details.trim();
  // PostgreSQL cannot store a NUL character in text (a 500); no report needs one.
  if (text.includes('\u0000')) invalid('details', 'must not contain NUL characters');
  if (Array.from(text).length > REPORT_DETAILS_MAX_LENGTH) invalid('details', `must be at most ${REPORT_DETAILS_MAX_LENGTH} characters`);
  return text === '' ? { reason: reason as string } : { reason: reason as string, details: text };
};
