/**
 * Comments on articles: submission, the public approved-only tree, moderation, and the bookkeeping the Document
 * Service middleware (document-middlewares/comments.ts) needs on create and delete.
 *
 * A comment is linked to its article by the article's documentId: the relation from this non-D&P type connects
 * to the article's draft and published rows, and publishing replaces the published row, so every lookup goes
 * through the article rows' document_id instead of trusting one row id.
 */
import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import type { Knex } from 'knex';
import type { PluginConfig } from '../config/schema';
import { commentTables, publicNodeColumns } from '../utils/comment-tables';
import { forbidden } from '../utils/errors';
import { yieldToEventLoop } from '../utils/json';
import { buildTree } from '../utils/tree';
import { findVisibleComment } from '../utils/visible-comment';
import { getService } from '../utils/get-service';
import { uid } from '../domain/plugin-id';
import type { AdminListQuery, CommentInput, CommentStatus, Identifier } from '../domain/comments';
import { validateCommentBody } from '../validation/comment';
import type { ModerationReport } from './comment-reports';

const COMMENT = uid('comment');
const ARTICLE = uid('article');

/** Rows deleted per statement, well under the bound-parameter limits of SQLite and PostgreSQL. */
const DELETE_CHUNK = 500;
/** Comments whose content one query of the public tree reads; the event loop is handed back between them. */
const TREE_SLICE = 1000;

export interface PublicAuthor {
  id: number;
  documentId: string;
  username: string;
}

export interface CommentNode {
  id: number;
  documentId: string;
  content: string;
  createdAt: string;
  isAdmin: boolean;
  author: PublicAuthor | null;
}

export interface CreatedComment {
  id: number;
  documentId: string;
  content: string;
  status: CommentStatus;
  createdAt: string;
  isAdmin: boolean;
  parent: { id: number; documentId: string } | null;
  article: { id: number; documentId: string };
}

export interface AdminComment {
  id: number;
  documentId: string;
  content: string;
  status: CommentStatus;
  isAdmin: boolean;
  ip: string | null;
  userAgent: string | null;
  createdAt: string;
  /** `email` only for an admin who may read users in the Content Manager (see `adminList`). */
  author: { id: number; documentId: string; username: string; email?: string } | null;
  article: { documentId: string; title: string; slug: string } | null;
  parent: { documentId: string } | null;
  likes: number;
  reportCount: number;
  /** Oldest first; reasons and details only, never who reported. */
  reports: ModerationReport[];
}

interface StoredComment {
  id: number;
  documentId: string;
  content: string;
  status: CommentStatus;
  isAdmin: boolean | null;
  ip: string | null;
  userAgent: string | null;
  createdAt: Date | string;
  author?: { id: number; documentId: string; username: string; email: string } | null;
  article?: { documentId: string; title: string; slug: string } | null;
  parent?: { id: number; documentId: string } | null;
  likes?: number | null;
  reportCount?: number | null;
}

/** Timestamps come back as Date (pg), epoch numbers or strings (SQLite) from raw queries. */
const toIso = (value: unknown): string => {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'number' || (typeof value === 'string' && /^\d+$/.test(value))) return new Date(Number(value)).toISOString();
  return new Date(String(value)).toISOString();
};

const sameUser = (user: { id: number; documentId: string }, identifier: Identifier) =>
  typeof identifier === 'number' ? identifier === user.id : identifier === user.documentId;

const ADMIN_POPULATE = {
  author: { select: ['id', 'documentId', 'username', 'email'] },
  article: { select: ['documentId', 'title', 'slug'] },
  parent: { select: ['id', 'documentId'] },
};

const toAdminComment = (row: StoredComment, showEmail: boolean, reports: ModerationReport[] = []): AdminComment => ({
  id: row.id,
  documentId: row.documentId,
  content: row.content,
  status: row.status,
  isAdmin: Boolean(row.isAdmin),
  ip: row.ip ?? null,
  userAgent: row.userAgent ?? null,
  createdAt: toIso(row.createdAt),
  author: row.author
    ? {
        id: row.author.id,
        documentId: row.author.documentId,
        username: row.author.username,
        ...(showEmail ? { email: row.author.email } : {}),
      }
    : null,
  article: row.article ? { documentId: row.article.documentId, title: row.article.title, slug: row.article.slug } : null,
  parent: row.parent ? { documentId: row.parent.documentId } : null,
  likes: Number(row.likes ?? 0),
  reportCount: Number(row.reportCount ?? 0),
  reports,
});

type RawRow = Record<string, unknown>;

const comments = ({ strapi }: { strapi: Core.Strapi }) => {
  const knex = (): Knex => strapi.db.connection;

  const schema = () => commentTables(strapi);

  /** Subquery: ids of the comments linked to any row (draft or published, any locale) of the article. */
  const commentIdsOfArticle = (articleDocumentId: string) => {
    const s = schema();
    return knex()(`${s.articleLink.table} as l`)
      .join(`${s.articles} as a`, 'a.id', `l.${s.articleLink.target}`)
      .where(`a.${s.a('documentId')}`, articleDocumentId)
      .select(`l.${s.articleLink.comment}`);
  };

  const articleDocumentId = async (identifier: Identifier): Promise<string | undefined> => {
    if (typeof identifier === 'string') return identifier;
    // A numeric id may name the draft or the published row; either gives the documentId (published is checked next).
    const row = await strapi.db.query(ARTICLE).findOne({ select: ['documentId'], where: { id: identifier } });
    return row?.documentId;
  };

  const service = {
    /** The published article named by documentId or numeric id, else 404 `Article not found`. */
    async findPublishedArticle(identifier: Identifier | undefined): Promise<{ id: number; documentId: string }> {
      const documentId = identifier === undefined ? undefined : await articleDocumentId(identifier);
      const article = documentId
        ? await strapi.documents(ARTICLE).findOne({ documentId, status: 'published', fields: ['documentId'] })
        : null;
      if (!article) throw new errors.NotFoundError('Article not found');
      return { id: article.id as number, documentId: article.documentId };
    },

    /**
     * A comment of the given article that the public tree shows (approved, every ancestor approved: the rule likes
     * and reports use), else 400 `Parent comment not found`, so a reply cannot confirm that a hidden comment exists.
     */
    async findApprovedParent(identifier: Identifier, articleDocumentId: string) {
      const notFound = () => new errors.ValidationError('Parent comment not found');
      const visible = await findVisibleComment(strapi, identifier).catch((error: unknown) => {
        throw error instanceof errors.NotFoundError ? notFound() : error;
      });
      const parent = await strapi.db.query(COMMENT).findOne({
        select: ['id', 'documentId'],
        where: { id: visible.id },
        // The article relation links several rows of one document: any of them gives its documentId.
        populate: { article: { select: ['documentId'] } },
      });
      if (!parent || parent.article?.documentId !== articleDocumentId) throw notFound();
      return { id: parent.id as number, documentId: parent.documentId as string };
    },

    /**
     * `POST /api/bag/comments` and GraphQL `bagCreateComment`: the body checked against the current settings (400),
     * then submitted. `user` is the request's authenticated user, if any (`ctx.state.user`); the flood limit is the
     * caller's (a route or resolver middleware), as it counts requests, not comments.
     */
    async create(body: unknown, user: { id: number; documentId: string } | null | undefined): Promise<CreatedComment> {
      const config = await getService(strapi, 'settings').get();
      const input = validateCommentBody(body, config.comments.maxLength);
      return service.submit(input, user ? { id: user.id, documentId: user.documentId } : null, config);
    },

    /** POST /bag/comments. `user` is the token's user (null for a guest). IP and User-Agent are added by the middleware. */
    async submit(input: CommentInput, user: { id: number; documentId: string } | null, config: PluginConfig): Promise<CreatedComment> {
      if (input.author !== undefined && (!user || !sameUser(user, input.author))) {
        throw forbidden('Cannot comment on behalf of another user');
      }
      const article = await service.findPublishedArticle(input.article);
      const parent = input.parent === undefined ? null : await service.findApprovedParent(input.parent, article.documentId);
      const created = await strapi.documents(COMMENT).create({
        data: {
          content: input.content,
          status: config.comments.autoApprove ? 'approved' : 'pending',
          isAdmin: false,
          article: article.documentId,
          parent: parent?.documentId ?? null,
          author: user?.documentId ?? null,
        },
      });
      return {
        id: created.id as number,
        documentId: created.documentId,
        content: created.content as string,
        status: created.status as CommentStatus,
        createdAt: toIso(created.createdAt),
        isAdmin: Boolean(created.isAdmin),
        parent,
        article,
      };
    },

    /**
     * The approved comments of a published article as a tree. First the shape, one query for every comment of the
     * article (id, status, parent; every status, so a reply under a pending or rejected comment can be told apart
     * from one whose parent is elsewhere); then the visible ones' content, in slices; then one pass to build the
     * tree. The event loop is handed back between these steps, so a 10,000-comment thread does not stall the other
     * requests (SQLite answers synchronously).
     */
    async tree(identifier: Identifier | undefined): Promise<{ data: CommentNode[]; meta: { total: number } }> {
      const article = await service.findPublishedArticle(identifier);
      const s = schema();
      const shape: RawRow[] = await knex()(`${s.comments} as c`)
        .leftJoin(`${s.parentLink.table} as p`, `p.${s.parentLink.comment}`, 'c.id')
        .whereIn('c.id', commentIdsOfArticle(article.documentId))
        .select({ id: 'c.id', status: `c.${s.c('status')}`, parentId: `p.${s.parentLink.target}` });

      await yieldToEventLoop();
      const statusOf = new Map<number, unknown>();
      const parentOf = new Map<number, number | null>();
      for (const row of shape) {
        statusOf.set(Number(row.id), row.status);
        parentOf.set(Number(row.id), row.parentId === null || row.parentId === undefined ? null : Number(row.parentId));
      }
      const wanted = [...visibleComments(statusOf, parentOf)];

      const found = new Map<number, CommentNode>();
      for (let at = 0; at < wanted.length; at += TREE_SLICE) {
        if (at > 0) await yieldToEventLoop();
        const rows: RawRow[] = await knex()(`${s.comments} as c`)
          .leftJoin(`${s.authorLink.table} as al`, `al.${s.authorLink.comment}`, 'c.id')
          .leftJoin(`${s.users} as u`, 'u.id', `al.${s.authorLink.target}`)
          .whereIn('c.id', wanted.slice(at, at + TREE_SLICE))
          // Re-checked: a comment rejected or deleted since the shape was read is not shown.
          .where(`c.${s.c('status')}`, 'approved')
          .select(publicNodeColumns(s));
        for (const row of rows) {
          const id = Number(row.id);
          if (found.has(id)) continue; // a duplicated join row is listed once
          found.set(id, {
            id,
            documentId: String(row.documentId),
            content: String(row.content),
            createdAt: toIso(row.createdAt),
            isAdmin: Boolean(row.isAdmin),
            author:
              row.authorId === null || row.authorId === undefined
                ? null
                : { id: Number(row.authorId), documentId: String(row.authorDocumentId), username: String(row.authorUsername) },
          });
        }
      }

      await yieldToEventLoop();
      // What went away between the two reads hides its replies too, as a non-approved comment does.
      let nodes = [...found.values()];
      if (found.size < wanted.length) {
        for (const id of wanted) if (!found.has(id)) statusOf.set(id, 'gone');
        const visible = visibleComments(statusOf, parentOf);
        nodes = nodes.filter((node) => visible.has(node.id));
      }

      const data = buildTree(nodes, {
        id: (node) => node.id,
        parentId: (node) => parentOf.get(node.id),
        compare: (a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id - b.id),
      });
      return { data, meta: { total: nodes.length } };
    },

    /** Moderation list: pending first, then newest first; `reported`: reported comments only, most reported first. */
    /**
     * The moderation list. `showEmails`: whether the admin may read users' e-mail addresses elsewhere (the Content
     * Manager); moderating comments alone does not make the commenters' addresses theirs to see.
     */
    async adminList(query: AdminListQuery, { showEmails }: { showEmails: boolean }) {
      const s = schema();
      const base = knex()(`${s.comments} as c`);
      if (query.status) base.where(`c.${s.c('status')}`, query.status);
      if (query.article) base.whereIn('c.id', commentIdsOfArticle(query.article));
      if (query.reported) base.where(`c.${s.c('reportCount')}`, '>', 0);

      const [{ count }] = await base.clone().count({ count: 'c.id' });
      const total = Number(count);
      const ids: number[] = (
        await base
          .clone()
          .select('c.id')
          .modify((builder) => {
            if (query.reported) builder.orderBy(`c.${s.c('reportCount')}`, 'desc');
          })
          .orderByRaw(`CASE WHEN c.?? = ? THEN 0 ELSE 1 END`, [s.c('status'), 'pending'])
          .orderBy(`c.${s.c('createdAt')}`, 'desc')
          .orderBy('c.id', 'desc')
          .limit(query.pageSize)
          .offset((query.page - 1) * query.pageSize)
      ).map((row: RawRow) => Number(row.id));

      const rows: StoredComment[] = ids.length
        ? await strapi.db.query(COMMENT).findMany({ where: { id: { $in: ids } }, populate: ADMIN_POPULATE })
        : [];
      const byId = new Map(rows.map((row) => [row.id, row]));
      const reports = await getService(strapi, 'comment-reports').forComments(ids);
      return {
        data: ids.flatMap((id) => (byId.has(id) ? [toAdminComment(byId.get(id)!, showEmails, reports.get(id))] : [])),
        meta: {
          pagination: { page: query.page, pageSize: query.pageSize, pageCount: Math.ceil(total / query.pageSize), total },
        },
      };
    },

    /** Moves the given comments to `status`; returns how many exist and were updated. */
    async setStatus(documentIds: string[], status: CommentStatus): Promise<number> {
      const notifications = getService(strapi, 'comment-notifications');
      const approving = status === 'approved' ? await notifications.notApprovedYet(documentIds) : [];
      // One statement for the whole selection; the moderation page sends a page of comments at a time.
      const { count } = await strapi.db.query(COMMENT).updateMany({
        where: { documentId: { $in: documentIds } },
        data: { status, updatedAt: new Date(getService(strapi, 'clock').now()) },
      });
      // A moderator's approval settles the reports: the threshold counts new ones only.
      if (status === 'approved') await getService(strapi, 'comment-reports').clearForDocuments(documentIds);
      notifications.repliesApproved(approving);
      return Number(count);
    },

    /** A reply as the site: `isAdmin`, approved at once, under `documentId`, on the same article. */
    async adminReply(documentId: string, content: string): Promise<AdminComment> {
      const parent = await strapi.db.query(COMMENT).findOne({
        select: ['id', 'documentId'],
        where: { documentId },
        populate: { article: { select: ['documentId'] } },
      });
      if (!parent) throw new errors.NotFoundError('Comment not found');
      if (!parent.article) throw new errors.ValidationError('The comment is not attached to an article');
      const created = await strapi.documents(COMMENT).create({
        data: {
          content,
          status: 'approved',
          isAdmin: true,
          article: parent.article.documentId,
          parent: parent.documentId,
          author: null,
        },
      });
      const row = await strapi.db.query(COMMENT).findOne({ where: { id: created.id }, populate: ADMIN_POPULATE });
      // A reply as the site has no author, so there is no e-mail to show or hide.
      return toAdminComment(row as StoredComment, false);
    },

    /** Before a comment is deleted: its replies move up to its parent (or become roots), so no one else's text is lost. */
    async reparentChildren(documentId: string) {
      const comment = await strapi.db.query(COMMENT).findOne({
        select: ['id'],
        where: { documentId },
        populate: { parent: { select: ['documentId'] }, children: { select: ['documentId'] } },
      });
      if (!comment) return;
      const data: Record<string, unknown> = { parent: comment.parent?.documentId ?? null };
      for (const child of (comment.children ?? []) as { documentId: string }[]) {
        await strapi.documents(COMMENT).update({ documentId: child.documentId, data });
      }
    },

    /** Ids of every comment on the article document (all its rows). */
    async idsOfArticle(articleDocumentId: string): Promise<number[]> {
      const s = schema();
      return (await commentIdsOfArticle(articleDocumentId)).map((row: RawRow) => Number(row[s.articleLink.comment]));
    },

    /** Deletes comments by id, in chunks. */
    async deleteByIds(ids: number[]): Promise<number> {
      let deleted = 0;
      for (let start = 0; start < ids.length; start += DELETE_CHUNK) {
        const { count } = await strapi.db.query(COMMENT).deleteMany({ where: { id: { $in: ids.slice(start, start + DELETE_CHUNK) } } });
        deleted += Number(count);
      }
      return deleted;
    },
  };

  return service;
};

/**
 * Which comments are listed: approved, and with every ancestor that belongs to the article approved too. A parent
 * outside the article's rows (deleted, another article) does not hide a reply: the tree shows it at the root, and
 * so does a cycle. Iterative walk with memo, linear overall, no recursion.
 */
const visibleComments = (statusOf: Map<number, unknown>, parentOf: Map<number, number | null>): Set<number> => {
  const known = new Map<number, boolean>();
  for (const start of statusOf.keys()) {
    if (known.has(start)) continue;
    const path: number[] = [];
    const onPath = new Set<number>();
    let current: number | null = start;
    let result = true;
    for (;;) {
      if (current === null || !statusOf.has(current)) break; // reached a root or left the article
      if (known.has(current)) {
        result = known.get(current)!;
        break;
      }
      if (onPath.has(current)) break; // a cycle: shown at the root by buildTree
      if (statusOf.get(current) !== 'approved') {
        result = false;
        break;
      }
      onPath.add(current);
      path.push(current);
      current = parentOf.get(current) ?? null;
    }
    for (const id of path) known.set(id, result);
    if (!known.has(start)) known.set(start, false);
  }
  return new Set([...known].filter(([, shown]) => shown).map(([id]) => id));
};

export type CommentsService = ReturnType<typeof comments>;
export default comments;
