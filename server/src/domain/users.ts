/** Users as the public sees them. */

/** A user (a comment's or an article's author) as every public answer shows it: `{ id, documentId, username }`. */
export interface PublicAuthor {
  id: number;
  documentId: string;
  username: string;
}

/** The public shape of a populated user; null when there is none. */
export const publicAuthor = (user: unknown): PublicAuthor | null => {
  if (!user || typeof user !== 'object') return null;
  const { id, documentId, username } = user as PublicAuthor;
  return { id, documentId, username };
};
