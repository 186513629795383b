/** Shapes of likes (`/api/bag/comments/:id/like`) and reports (`/api/bag/comments/:id/report`). */
import { z } from 'zod/v4';
import { lazyShape } from '../../platform/shapes/lazy';
import { declareRequest } from '../../platform/request-check';
import { jsonBody } from '../../platform/route-types';
import { idParams } from './comments.shapes';
import { NO_NUL, atMost, codePoints, noNul } from '../../platform/shapes/fields';

export const REPORT_DETAILS_MAX_LENGTH = 1000;

export const likeState = lazyShape(() => z.object({ id: z.number().int(), documentId: z.string(), likes: z.number().int(), liked: z.boolean() }));
export const likeResponse = lazyShape(() => z.object({ data: likeState }));

/** `reason` is one of `comments.reports.reasons` (checked against the settings); `details` is optional free text, trimmed. */
export const reportBody = lazyShape(() => z.object({
  reason: z.string(),
  details: z
    .string({ error: 'must be a string' })
    .trim()
    .refine(noNul, NO_NUL)
    .refine((value) => codePoints(value) <= REPORT_DETAILS_MAX_LENGTH, atMost(REPORT_DETAILS_MAX_LENGTH))
    .nullable()
    .optional(),
}));
export const reportState = lazyShape(() => z.object({ id: z.number().int(), documentId: z.string(), reported: z.literal(true) }));
export const reportResponse = lazyShape(() => z.object({ data: reportState }));

/** The report as checked: `reason` one of the configured `comments.reports.reasons` (their list in the error's details). */
const reportBodyFor = (reasons: readonly string[]) =>
  z
    .object({
      reason: z.unknown().superRefine((value, ctx) => {
        if (typeof value !== 'string' || !reasons.includes(value)) {
          ctx.addIssue({ code: 'custom', message: `must be one of ${reasons.join(', ')}`, params: { details: { allowed: [...reasons] } }, input: value });
        }
      }),
      details: reportBody.shape.details,
    })
    .transform(({ reason, details }) => (details === undefined || details === null || details === '' ? { reason: reason as string } : { reason: reason as string, details }));

export const likeRequest = declareRequest({ params: idParams }, { first: true });
export const reportRequest = declareRequest(
  { params: idParams, ...jsonBody(reportBody) },
  { first: true, current: (config) => ({ params: idParams, ...jsonBody(reportBodyFor(config.comments.reports.reasons)) }) }
);
