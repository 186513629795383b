/** Pieces shared by the route shapes: ids, the public author, Strapi's list pagination and REST query parameters. */
import { z } from 'zod/v4';

/** A documentId or a numeric id, as clients may send either. */
export const identifier = z.union([z.string(), z.number().int()]);

/** A path segment naming a document by documentId (or numeric id where the route says so). */
export const pathParam = (description: string) => z.string().describe(description);

/** A user as every route under `/api/bag` shows one: never more than these three fields. */
export const publicAuthor = z.object({ id: z.number().int(), documentId: z.string(), username: z.string() });

export const pagination = z.object({
  page: z.number().int(),
  pageSize: z.number().int(),
  pageCount: z.number().int(),
  total: z.number().int(),
});

/** Strapi REST query parameters of a list, checked and sanitized like the host's own REST API. */
export const restListQuery = {
  pagination: z
    .object({
      page: z.string().optional(),
      pageSize: z.string().optional(),
      start: z.string().optional(),
      limit: z.string().optional(),
    })
    .optional(),
  filters: z.record(z.string(), z.unknown()).optional(),
  sort: z.union([z.string(), z.array(z.string())]).optional(),
  fields: z.union([z.string(), z.array(z.string())]).optional(),
  populate: z.union([z.string(), z.array(z.string()), z.record(z.string(), z.unknown())]).optional(),
};

