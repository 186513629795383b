/** What the comment shapes cannot say: the REST envelope, the configured maximum length, ids as the services take them. */
import { z } from 'zod/v4';
import type { AdminListQuery, CommentInput, Identifier } from './comment-vocabulary';
import { invalidField as invalid } from '../../platform/errors';
import { MODERATION_PAGE_SIZE, closeBody, moderationQueryShape, pinBody, statusBody } from './admin-comments.shapes';
import { identifier, toIdentifier } from '../../platform/shapes/common';
import { MINE_PAGE_SIZE, commentFields, commentText, type CommentStatus } from './comments.shapes';
import { isRecord } from '../../platform/is-record';
import { parseShape } from '../../platform/shapes/parse';

/** A path segment naming a document: documentId or numeric id; undefined when it can be neither. */
export const parseIdentifier = (value: unknown): Identifier | undefined => {
  const result = identifier.safeParse(value);
  return result.success ? toIdentifier(result.data) : undefined;
};

const present = (value: string | number | null | undefined): Identifier | undefined =>
  value === undefined || value === null || value === '' ? undefined : toIdentifier(value);

/** Trimmed text of 1..maxLength characters (code points, so an emoji counts once). */
export const validateContent = (value: unknown, maxLength: number): string =>
  parseShape(z.object({ content: commentText(maxLength) }), { content: value }, { first: true }).content;

/**
 * The Strapi REST envelope `{ "data": { … } }` (what `@strapi/client` and `strapi-sdk-js` send on create) is
 * unwrapped; `data` next to other top-level fields is ambiguous and refused.
 */
const unwrapEnvelope = (body: unknown): Record<string, unknown> => {
  const input = isRecord(body) ? body : {};
  if (!('data' in input)) return input;
  if (Object.keys(input).length > 1) invalid('data', 'must be the only top-level field when the body is wrapped in { data }');
  if (!isRecord(input.data)) invalid('data', 'must be an object');
  return input.data as Record<string, unknown>;
};

/** POST /bag/comments: exactly `content`, `article`, `parent`, `author`; everything else in the body is ignored. */
export const validateCommentBody = (body: unknown, maxLength: number): CommentInput => {
  const fields = parseShape(commentFields(maxLength), unwrapEnvelope(body), { first: true });
  return { content: fields.content, article: toIdentifier(fields.article), parent: present(fields.parent), author: present(fields.author) };
};

const pageNumber = (value: string | undefined, fallback: number) => (value === undefined || value === '' ? fallback : Number(value));

/** GET /cms-plugin-bag/comments?status=&article=&reported=&page=&pageSize= */
export const validateAdminListQuery = (query: unknown): AdminListQuery => {
  const input = parseShape(moderationQueryShape, isRecord(query) ? query : {}, { first: true });
  return {
    status: input.status === '' ? undefined : input.status,
    article: input.article === '' ? undefined : input.article,
    reported: input.reported === 'true',
    page: pageNumber(input.page, 1),
    pageSize: pageNumber(input.pageSize, MODERATION_PAGE_SIZE.default),
  };
};

/** PUT /cms-plugin-bag/comments/status: `{ documentIds: string[], status }`, duplicates removed. */
export const validateStatusBody = (body: unknown): { documentIds: string[]; status: CommentStatus } => {
  const input = parseShape(statusBody, isRecord(body) ? body : {}, { first: true });
  // The shape's check has made every item a documentId string.
  return { documentIds: [...new Set(input.documentIds as string[])], status: input.status };
};

const wholeNumber = (field: string, value: unknown, fallback: number, max: number): number => {
  if (value === undefined || value === '') return fallback;
  if (typeof value !== 'string' || !/^\d+$/.test(value) || Number(value) < 1 || Number(value) > max) {
    return invalid(field, `must be an integer from 1 to ${max}`);
  }
  return Number(value);
};

/** GET /bag/comments/mine?pagination[page]=&pagination[pageSize]= */
export const validateMineQuery = (query: unknown): { page: number; pageSize: number } => {
  const input = isRecord(query) ? query : {};
  const paging = isRecord(input.pagination) ? input.pagination : {};
  if (input.pagination !== undefined && !isRecord(input.pagination)) invalid('pagination', 'must be an object');
  return {
    page: wholeNumber('pagination.page', paging.page, 1, 1_000_000),
    pageSize: wholeNumber('pagination.pageSize', paging.pageSize, MINE_PAGE_SIZE.default, MINE_PAGE_SIZE.max),
  };
};

/** PUT /cms-plugin-bag/comments/:documentId/pin: `{ pinned: boolean }`. */
export const validatePinBody = (body: unknown): boolean => parseShape(pinBody, isRecord(body) ? body : {}, { first: true }).pinned;

/** PUT /cms-plugin-bag/articles/:documentId/comments: `{ closed: boolean }`. */
export const validateCloseBody = (body: unknown): boolean => parseShape(closeBody, isRecord(body) ? body : {}, { first: true }).closed;
