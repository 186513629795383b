/**
 * The plugin's own GraphQL queries and mutation: `bagArticle`, `bagPage`, `bagMenu`,
 * `bagCommentThread` and `bagCreateComment`. Each resolver calls the service its REST route's controller calls, with
 * the same caller (`ctx.state.auth`, `ctx.state.user`), so the rules, counters and output sanitization are one code
 * path for both APIs; each is allowed exactly when the caller may call that REST action (Users & Permissions role or
 * API token), through the GraphQL plugin's `auth.scope` check.
 *
 * The answers are the REST answers' `data`, typed here field by field (types of our own rather than the generated
 * `CmsPluginBag…` ones, so nothing the generated resolvers would add — drafts, comments, a user's e-mail — can get
 * in). A menu's `items` is the JSON tree REST sends: a GraphQL selection cannot follow a tree of any depth, and the
 * JSON keeps attributes an app adds to menu items.
 */
import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import type { ActionName } from '../controllers';
import rateLimitMiddleware from '../middlewares/rate-limit';
import type { DetailKind } from '../services/content';
import { getService } from '../services/get-service';
import { PLUGIN_ID } from '../domain/plugin-id';
import { parseIdentifier, validateCommentBody } from '../validation/comment';
import { parseRootsQuery } from '../validation/thread';
import { writeDeepResults } from './deep-results';
import { AUTHOR_TYPE, type Nexus, type ObjectDefinition } from './nexus';


/** What the GraphQL plugin puts in a resolver's context: the koa request's state, and the request itself. */
interface ResolverContext {
  state: { auth?: unknown; user?: { id: number; documentId: string } };
  koaContext: Context;
}

type Resolver<Args> = (parent: unknown, args: Args, context: ResolverContext) => Promise<unknown>;

/** A resolver middleware as the GraphQL plugin's resolversConfig calls it. */
type ResolverMiddleware = (
  resolve: (parent: unknown, args: unknown, context: ResolverContext, info: unknown) => Promise<unknown>,
  parent: unknown,
  args: unknown,
  context: ResolverContext,
  info: unknown
) => Promise<unknown>;

/** Allowed exactly when the caller may call this REST action (the same Users & Permissions / API token check). */
const sameAuthAs = (action: ActionName) => ({ auth: { scope: [`plugin::${PLUGIN_ID}.${action}`] } });

/**
 * The REST route's rate-limit middleware (`rateLimit.<limit>`, per client IP, the same counters), run around a
 * resolver on the GraphQL request's koa context: a refusal is the host's RateLimitError with `Retry-After` set.
 */
const rateLimitedResolver =
  (strapi: Core.Strapi, limit: 'comment'): ResolverMiddleware =>
  async (resolve, parent, args, context, info) => {
    let result: unknown;
    await rateLimitMiddleware({ limit }, { strapi })(context.koaContext, async () => {
      result = await resolve(parent, args, context, info);
    });
    return result;
  };

const dateFields = (t: ObjectDefinition, ...names: string[]) => {
  for (const name of names) t.field(name, { type: 'DateTime' });
};

/** The object types the queries return; each field is the REST answer's key of the same name. */
const outputTypes = (nexus: Nexus) => [
  nexus.objectType({
    name: 'BagMedia',
    definition(t) {
      t.nonNull.int('id');
      t.nonNull.id('documentId');
      t.string('name');
      t.string('alternativeText');
      t.string('caption');
      t.int('width');
      t.int('height');
      t.field('formats', { type: 'JSON' });
      t.string('hash');
      t.string('ext');
      t.string('mime');
      t.float('size');
      t.string('url');
      t.string('previewUrl');
      t.string('provider');
      t.field('provider_metadata', { type: 'JSON' });
      dateFields(t, 'createdAt', 'updatedAt', 'publishedAt');
    },
  }),
  nexus.objectType({
    name: 'BagTaxonomy',
    description: "An article's category or tag, as REST shows it.",
    definition(t) {
      t.nonNull.int('id');
      t.nonNull.id('documentId');
      t.string('title');
      t.string('slug');
      t.string('description');
      dateFields(t, 'createdAt', 'updatedAt', 'publishedAt');
    },
  }),
  nexus.objectType({
    name: 'BagArticle',
    definition(t) {
      t.nonNull.int('id');
      t.nonNull.id('documentId');
      t.string('title');
      t.string('slug');
      t.string('summary');
      t.string('content');
      t.boolean('isTop');
      t.int('views', { description: 'Views including this read.' });
      t.field('cover', { type: 'BagMedia' });
      t.field('category', { type: 'BagTaxonomy' });
      t.list.nonNull.field('tags', { type: 'BagTaxonomy' });
      t.field('author', { type: AUTHOR_TYPE });
      dateFields(t, 'createdAt', 'updatedAt', 'publishedAt');
    },
  }),
  nexus.objectType({
    name: 'BagPage',
    definition(t) {
      t.nonNull.int('id');
      t.nonNull.id('documentId');
      t.string('title');
      t.string('slug');
      t.string('content');
      t.field('cover', { type: 'BagMedia' });
      t.string('seoTitle');
      t.string('seoKeywords');
      t.string('seoDescription');
      t.int('views', { description: 'Views including this read.' });
      dateFields(t, 'createdAt', 'updatedAt', 'publishedAt');
    },
  }),
  nexus.objectType({
    name: 'BagMenu',
    definition(t) {
      t.nonNull.int('id');
      t.nonNull.id('documentId');
      t.string('title');
      t.string('slug');
      t.nonNull.field('items', {
        type: 'JSON',
        description: 'The tree of GET /api/bag/menus/:slug: items with their attributes and `children`, in order.',
      });
    },
  }),
  nexus.objectType({
    name: 'BagCommentReply',
    definition(t) {
      t.nonNull.int('id');
      t.nonNull.id('documentId');
      t.nonNull.string('content');
      t.nonNull.field('createdAt', { type: 'DateTime' });
      t.nonNull.boolean('isAdmin');
      t.nonNull.int('likes');
      t.field('author', { type: AUTHOR_TYPE });
      t.nonNull.int('replyCount', { description: 'Approved direct replies.' });
    },
  }),
  nexus.objectType({
    name: 'BagCommentRoot',
    definition(t) {
      t.nonNull.int('id');
      t.nonNull.id('documentId');
      t.nonNull.string('content');
      t.nonNull.field('createdAt', { type: 'DateTime' });
      t.nonNull.boolean('isAdmin');
      t.nonNull.int('likes');
      t.field('author', { type: AUTHOR_TYPE });
      t.nonNull.int('replyCount', { description: 'Approved direct replies.' });
      t.nonNull.list.nonNull.field('replies', { type: 'BagCommentReply', description: 'The first approved replies, oldest first.' });
    },
  }),
  nexus.objectType({
    name: 'BagCursorPagination',
    definition(t) {
      t.nonNull.int('pageSize');
      t.nonNull.boolean('hasMore');
      t.string('next', { description: 'The `after` of the next page; null on the last page.' });
    },
  }),
  nexus.objectType({
    name: 'BagCommentThreadMeta',
    definition(t) {
      t.nonNull.field('pagination', { type: 'BagCursorPagination' });
      t.int('total', { description: "The article's approved roots." });
    },
  }),
  nexus.objectType({
    name: 'BagCommentThread',
    definition(t) {
      t.nonNull.list.nonNull.field('data', { type: 'BagCommentRoot' });
      t.nonNull.field('meta', { type: 'BagCommentThreadMeta' });
    },
  }),
  nexus.objectType({
    name: 'BagDocumentRef',
    definition(t) {
      t.nonNull.int('id');
      t.nonNull.id('documentId');
    },
  }),
  nexus.objectType({
    name: 'BagCreatedComment',
    definition(t) {
      t.nonNull.int('id');
      t.nonNull.id('documentId');
      t.nonNull.string('content');
      t.nonNull.string('status', { description: '`pending` until a moderator approves it, or `approved` with comments.autoApprove.' });
      t.nonNull.field('createdAt', { type: 'DateTime' });
      t.nonNull.boolean('isAdmin');
      t.field('parent', { type: 'BagDocumentRef' });
      t.nonNull.field('article', { type: 'BagDocumentRef' });
    },
  }),
  nexus.inputObjectType({
    name: 'BagCommentInput',
    definition(t) {
      t.nonNull.string('content');
      t.nonNull.id('article', { description: 'documentId or numeric id of a published article.' });
      t.id('parent', { description: 'An approved comment of the same article.' });
    },
  }),
];

interface SlugArgs {
  slug: string;
  locale?: string | null;
}

interface ThreadArgs {
  article: string;
  pageSize?: number | null;
  after?: string | null;
  locale?: string | null;
}

interface CreateCommentArgs {
  data: { content: string; article: string; parent?: string | null };
  locale?: string | null;
}

const localeOf = (args: { locale?: string | null }) => ({ locale: args.locale ?? undefined });

export const registerPluginQueries = (strapi: Core.Strapi): void => {
  // bagMenu's item tree is as deep as the menu, like REST's answer.
  writeDeepResults(strapi);

  const detail =
    (kind: DetailKind): Resolver<SlugArgs> =>
    async (_parent, args, context) =>
      getService(strapi, 'content').viewDetail(kind, args.slug, context.state.auth, localeOf(args));

  const menu: Resolver<SlugArgs> = async (_parent, args, context) =>
    getService(strapi, 'menus').detail(args.slug, context.state.auth, localeOf(args));

  // The REST form of the paging parameters, so both go through one parser (validation/thread.ts parseRootsQuery).
  // Comment threads are per article document: `locale` is accepted and has no effect.
  const thread: Resolver<ThreadArgs> = async (_parent, args) => {
    const config = await getService(strapi, 'settings').get();
    const threads = getService(strapi, 'comment-threads');
    const query = {
      pagination: args.pageSize === undefined || args.pageSize === null ? undefined : { pageSize: String(args.pageSize) },
      after: args.after ?? undefined,
    };
    return threads.roots(parseIdentifier(args.article), parseRootsQuery(query, config, threads.cursors()), config);
  };

  // As POST /api/bag/comments: the body checked against the current settings, then submitted.
  const createComment: Resolver<CreateCommentArgs> = async (_parent, args, context) => {
    const config = await getService(strapi, 'settings').get();
    const body = { content: args.data.content, article: args.data.article, parent: args.data.parent ?? undefined };
    const input = validateCommentBody(body, config.comments.maxLength);
    const user = context.state.user as { id: number; documentId: string } | null | undefined;
    return getService(strapi, 'comments').submit(input, user ? { id: user.id, documentId: user.documentId } : null, config);
  };

  strapi
    .plugin('graphql')
    .service('extension')
    .use(({ nexus }: { nexus: Nexus }) => {
      const slugArgs = { slug: nexus.nonNull(nexus.stringArg()), locale: nexus.stringArg() };
      return {
        types: [
          ...outputTypes(nexus),
          nexus.extendType({
            type: 'Query',
            definition(t) {
              t.field('bagArticle', {
                type: 'BagArticle',
                description: 'The published article with this slug, as GET /api/bag/articles/:slug; counts a view.',
                args: slugArgs,
                resolve: detail('article') as never,
              });
              t.field('bagPage', {
                type: 'BagPage',
                description: 'The published page with this slug, as GET /api/bag/pages/:slug; counts a view.',
                args: slugArgs,
                resolve: detail('page') as never,
              });
              t.field('bagMenu', {
                type: 'BagMenu',
                description: 'The menu with this slug and its item tree, as GET /api/bag/menus/:slug.',
                args: slugArgs,
                resolve: menu as never,
              });
              t.field('bagCommentThread', {
                type: 'BagCommentThread',
                description:
                  "A page of the article's approved root comments, newest first, as GET /api/bag/articles/:id/comments?pagination[pageSize]=…&after=….",
                args: {
                  article: nexus.nonNull(nexus.idArg()),
                  pageSize: nexus.intArg(),
                  after: nexus.stringArg(),
                  locale: nexus.stringArg(),
                },
                resolve: thread as never,
              });
            },
          }),
          nexus.extendType({
            type: 'Mutation',
            definition(t) {
              t.field('bagCreateComment', {
                type: 'BagCreatedComment',
                description: 'Submits a comment as POST /api/bag/comments: the author is the caller, flood-limited per client IP.',
                args: { data: nexus.nonNull(nexus.arg({ type: 'BagCommentInput' })), locale: nexus.stringArg() },
                resolve: createComment as never,
              });
            },
          }),
        ],
        resolversConfig: {
          'Query.bagArticle': sameAuthAs('article.findOne'),
          'Query.bagPage': sameAuthAs('page.findOne'),
          'Query.bagMenu': sameAuthAs('menu.findOne'),
          'Query.bagCommentThread': sameAuthAs('comment.findByArticle'),
          'Mutation.bagCreateComment': { ...sameAuthAs('comment.create'), middlewares: [rateLimitedResolver(strapi, 'comment')] },
        },
      };
    });
};
