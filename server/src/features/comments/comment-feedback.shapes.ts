/** Shapes of likes (`/api/bag/comments/:id/like`) and reports (`/api/bag/comments/:id/report`). */
import { z } from 'zod/v4';
import { lazyShape } from '../../platform/shapes/lazy';
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
