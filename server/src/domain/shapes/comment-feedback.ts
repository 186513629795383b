/** Shapes of likes (`/api/bag/comments/:id/like`) and reports (`/api/bag/comments/:id/report`). */
import { z } from 'zod/v4';
import { NO_NUL, atMost, codePoints, noNul } from './fields';

export const REPORT_DETAILS_MAX_LENGTH = 1000;

export const likeState = z.object({ id: z.number().int(), documentId: z.string(), likes: z.number().int(), liked: z.boolean() });
export const likeResponse = z.object({ data: likeState });

/** `reason` is one of `comments.reports.reasons` (checked against the settings); `details` is optional free text, trimmed. */
export const reportBody = z.object({
  reason: z.string(),
  details: z
    .string({ error: 'must be a string' })
    .trim()
    .refine(noNul, NO_NUL)
    .refine((value) => codePoints(value) <= REPORT_DETAILS_MAX_LENGTH, atMost(REPORT_DETAILS_MAX_LENGTH))
    .nullable()
    .optional(),
});
export const reportState = z.object({ id: z.number().int(), documentId: z.string(), reported: z.literal(true) });
export const reportResponse = z.object({ data: reportState });
