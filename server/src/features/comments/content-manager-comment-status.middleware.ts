/**
 * Lets the Content Manager save a comment's moderation `status`, within the admin role's field-level permissions.
 * The Content Manager reads `status` in a create or update body as the draft & publish dimension ('draft' |
 * 'published') and refuses anything else with 400 "Invalid status", so a comment could not be moved to approved or
 * rejected there. This router middleware (the same hook the host's i18n plugin uses on these routes) takes a
 * moderation status out of the body before the Content Manager sees it; the comment Document Service middleware puts
 * it back into the data it saves if the role may write `status` (`permittedCommentStatus`), as the host's own input
 * sanitizer would have decided. On the way out it restores the stored status the Content Manager blanks in its
 * answers, for roles that may read `status`.
 */
import type { Core } from '@strapi/strapi';
import type { Context, Next } from 'koa';
import { ADMIN_ACTIONS } from '../../platform/admin-actions';
import { COMMENT_STATUSES, type CommentStatus } from './comment-vocabulary';
import { uid } from '../../platform/plugin-id';
import { permissionChecker, permissionPopulate, type PermissionChecker } from '../../platform/permission-checker';

const COMMENT = uid('comment');
const COMMENT_PATH = `/content-manager/collection-types/${COMMENT}`;
const STATE_KEY = 'cmsBagCommentStatus';

type RequestState = Pick<Context, 'state'> | undefined;
type Action = 'read' | 'create' | 'update';
type StoredComment = { documentId: string; status: CommentStatus };

/** The Content Manager's permission checker for comments, with the admin's abilities (none before authentication). */
const checkerFor = (strapi: Core.Strapi, request: RequestState): PermissionChecker | undefined =>
  permissionChecker(strapi, request?.state?.userAbility, COMMENT);

/**
 * Stored comments with the relations the role's permission conditions look at (`createdBy` for "Is creator"),
 * loaded the way the Content Manager loads a document before checking it.
 */
const loadSubjects = async (strapi: Core.Strapi, checker: PermissionChecker, action: Action, documentIds: string[]) => {
  const populate = await permissionPopulate(strapi, checker, action, COMMENT);
  return (await strapi.documents(COMMENT).findMany({ filters: { documentId: { $in: documentIds } }, populate: populate as never })) as unknown as StoredComment[];
};

/**
 * The moderation status a Content Manager request carried, if the admin's role may write that field (on that
 * comment, for an update); read by the comment Document Service middleware.
 */
export const permittedCommentStatus = async (
  strapi: Core.Strapi,
  request: RequestState,
  action: 'create' | 'update',
  documentId?: string
): Promise<CommentStatus | undefined> => {
  const status = request?.state?.[STATE_KEY] as CommentStatus | undefined;
  const checker = status && checkerFor(strapi, request);
  if (!checker) return undefined;
  if (action === 'create') return checker.can.create(undefined, 'status') ? status : undefined;
  const [comment] = documentId ? await loadSubjects(strapi, checker, 'update', [documentId]) : [];
  return comment && checker.can.update(comment, 'status') ? status : undefined;
};

/** An administrator's request (it carries the admin's abilities) from a role without *Moderate comments*. */
export const mayNotModerate = (request: RequestState): boolean => {
  const userAbility = request?.state?.userAbility as { can(action: string): boolean } | undefined;
  return Boolean(userAbility) && !userAbility!.can(ADMIN_ACTIONS.commentsModerate);
};

type Listed = { documentId?: unknown; status?: unknown };

/**
 * The Content Manager answers `status: undefined` (or its publication status) for every document of a type without
 * draft & publish: put the stored moderation status back where the role may read it, and take it out elsewhere.
 */
const restoreStatuses = async (strapi: Core.Strapi, request: Context) => {
  const response = request.body as { data?: Listed; results?: Listed[] } | undefined;
  const documents = [response?.data, ...(Array.isArray(response?.results) ? response.results : [])].filter(
    (document): document is Listed & { documentId: string } => typeof document?.documentId === 'string'
  );
  if (documents.length === 0) return;
  const checker = checkerFor(strapi, request);
  const rows = checker ? await loadSubjects(strapi, checker, 'read', documents.map((document) => document.documentId)) : [];
  const readable = new Map(rows.filter((row) => checker?.can.read(row, 'status')).map((row) => [row.documentId, row.status]));
  for (const document of documents) {
    if (readable.has(document.documentId)) document.status = readable.get(document.documentId);
    else delete document.status;
  }
};

export const registerContentManagerCommentStatus = (strapi: Core.Strapi) => {
  strapi.server.router.use('/content-manager/collection-types/:model', async (ctx: Context, next: Next) => {
    const path = decodeURIComponent(ctx.path);
    const isComment = path === COMMENT_PATH || path.startsWith(`${COMMENT_PATH}/`);
    const body = ctx.request.body as Record<string, unknown> | undefined;
    if (!isComment) return next();
    if ((ctx.method === 'POST' || ctx.method === 'PUT') && body && typeof body === 'object') {
      if (COMMENT_STATUSES.includes(body.status as CommentStatus)) {
        ctx.state[STATE_KEY] = body.status;
        delete body.status;
      }
    }
    await next();
    await restoreStatuses(strapi, ctx);
  });
};
