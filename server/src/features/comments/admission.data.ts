/** What a comment's admission reads (features/comments/admission.ts). */
import type { Core } from '@strapi/strapi';
import { uid } from '../../platform/plugin-id';

const COMMENT = uid('comment');

/** How many approved comments (not tombstones) the author has, leaving out `exceptId` (the one being edited). */
export const countApprovedOfAuthor = (strapi: Core.Strapi, authorId: number, exceptId?: number): Promise<number> =>
  strapi.db.query(COMMENT).count({
    where: { author: { id: authorId }, status: 'approved', deleted: { $ne: true }, ...(exceptId ? { id: { $ne: exceptId } } : {}) },
  });
