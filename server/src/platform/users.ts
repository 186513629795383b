/** Users as the public sees them. */
import type { z } from 'zod/v4';
import type { publicAuthor as publicAuthorShape } from './shapes/common';

/** A user (a comment's or an article's author) as every public answer shows it: `{ id, documentId, username }`. */
export type PublicAuthor = z.infer<typeof publicAuthorShape>;

/** The public shape of a populated user; null when there is none. */
export const publicAuthor = (user: unknown): PublicAuthor | null => {
  if (!user || typeof user !== 'object') return null;
  const { id, documentId, username } = user as PublicAuthor;
  return { id, documentId, username };
};
