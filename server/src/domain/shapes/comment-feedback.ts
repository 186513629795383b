/** Shapes of likes (`/api/bag/comments/:id/like`) and reports (`/api/bag/comments/:id/report`). */
import { z } from 'zod/v4';

export const likeState = z.object({ id: z.number().int(), documentId: z.string(), likes: z.number().int(), liked: z.boolean() });
export const likeResponse = z.object({ data: likeState });

/** `reason` is one of `comments.reports.reasons`; `details` is optional free text. */
export const reportBody = z.object({ reason: z.string(), details: z.string().nullable().optional() });
export const reportState = z.object({ id: z.number().int(), documentId: z.string(), reported: z.literal(true) });
export const reportResponse = z.object({ data: reportState });
