/** Input checks for the comment endpoints; each throws the host's ValidationError naming the field. */
import { COMMENT_STATUSES, type AdminListQuery, type CommentInput, type CommentStatus, type Identifier } from '../domain/comments';
import { invalidField as invalid } from '../domain/errors';

const MAX_BULK = 1000;

const asRecord = (body: unknown): Record<string, unknown> =>
  typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};

/** Ids are PostgreSQL `integer`s: a larger number cannot name a row, and the database would refuse it (a 500). */
const MAX_ID = 2 ** 31 - 1;
const isId = (value: number) => Number.isSafeInteger(value) && value > 0 && value <= MAX_ID;

const identifier = (value: unknown, path: string): Identifier => {
  if (typeof value === 'number' && isId(value)) return value;
  if (typeof value === 'string' && /^\d+$/.test(value.trim())) {
    if (isId(Number(value.trim()))) return Number(value.trim());
    return invalid(path, 'must be a documentId or a numeric id');
  }
  if (typeof value === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(value.trim())) return value.trim();
  return invalid(path, 'must be a documentId or a numeric id');
};

/** A path segment naming a document: documentId or numeric id; undefined when it can be neither. */
export const parseIdentifier = (value: unknown): Identifier | undefined => {
  try {
    return identifier(value, 'id');
  } catch {
    return undefined;
  }
};

const optionalIdentifier = (value: unknown, path: string): Identifier | undefined =>
  value === undefined || value === null || value === '' ? undefined : identifier(value, path);

/** Trimmed text of 1..maxLength characters (code points, so an emoji counts once). */
export const validateContent = (value: unknown, maxLength: number): string => {
  if (typeof value !== 'string') return invalid('content', 'must be a string');
  const content = value.trim();
  if (content.length === 0) return invalid('content', 'must not be empty');
  // PostgreSQL cannot store a NUL character in text (a 500); no comment needs one.
  if (content.includes('\u0000')) return invalid('content', 'must not contain NUL characters');
  if (Array.from(content).length > maxLength) return invalid('content', `must be at most ${maxLength} characters`);
  return content;
};

/**
 * The Strapi REST envelope `{ "data": { … } }` (what `@strapi/client` and `strapi-sdk-js` send on create) is
 * unwrapped; `data` next to other top-level fields is ambiguous and refused.
 */
const unwrapEnvelope = (body: unknown): Record<string, unknown> => {
  const input = asRecord(body);
  if (!('data' in input)) return input;
  if (Object.keys(input).length > 1) invalid('data', 'must be the only top-level field when the body is wrapped in { data }');
  if (typeof input.data !== 'object' || input.data === null || Array.isArray(input.data)) invalid('data', 'must be an object');
  return input.data as Record<string, unknown>;
};

/** POST /bag/comments: exactly `content`, `article`, `parent`, `author`; everything else in the body is ignored. */
export const validateCommentBody = (body: unknown, maxLength: number): CommentInput => {
  const input = unwrapEnvelope(body);
  if (input.article === undefined || input.article === null || input.article === '') invalid('article', 'is required');
  return {
    content: validateContent(input.content, maxLength),
    article: identifier(input.article, 'article'),
    parent: optionalIdentifier(input.parent, 'parent'),
    author: optionalIdentifier(input.author, 'author'),
  };
};

const isStatus = (value: unknown): value is CommentStatus => COMMENT_STATUSES.includes(value as CommentStatus);

const positiveInt = (value: unknown, path: string, fallback: number, max: number): number => {
  if (value === undefined || value === '') return fallback;
  const number = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(number) || number < 1 || number > max) return invalid(path, `must be an integer from 1 to ${max}`);
  return number;
};

/** GET /cms-plugin-bag/comments?status=&article=&reported=&page=&pageSize= */
export const validateAdminListQuery = (query: unknown): AdminListQuery => {
  const input = asRecord(query);
  const status = input.status === undefined || input.status === '' ? undefined : input.status;
  if (status !== undefined && !isStatus(status)) invalid('status', `must be one of ${COMMENT_STATUSES.join(', ')}`);
  const article = input.article === undefined || input.article === '' ? undefined : input.article;
  if (article !== undefined && typeof article !== 'string') invalid('article', 'must be an article documentId');
  const reported = input.reported === undefined || input.reported === '' ? undefined : input.reported;
  if (reported !== undefined && reported !== 'true' && reported !== 'false') invalid('reported', 'must be true or false');
  return {
    status: status as CommentStatus | undefined,
    article: article as string | undefined,
    reported: reported === 'true',
    page: positiveInt(input.page, 'page', 1, 1_000_000),
    pageSize: positiveInt(input.pageSize, 'pageSize', 25, 100),
  };
};

/** PUT /cms-plugin-bag/comments/status: `{ documentIds: string[], status }`. */
export const validateStatusBody = (body: unknown): { documentIds: string[]; status: CommentStatus } => {
  const input = asRecord(body);
  const { documentIds, status } = input;
  if (!Array.isArray(documentIds) || documentIds.length === 0 || documentIds.length > MAX_BULK) {
    invalid('documentIds', `must be a list of 1 to ${MAX_BULK} documentIds`);
  }
  if (!(documentIds as unknown[]).every((id) => typeof id === 'string' && id.length > 0 && id.length <= 64)) {
    invalid('documentIds', 'must contain documentId strings');
  }
  if (!isStatus(status)) invalid('status', `must be one of ${COMMENT_STATUSES.join(', ')}`);
  return { documentIds: [...new Set(documentIds as string[])], status: status as CommentStatus };
};
