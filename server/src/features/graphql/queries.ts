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
import { readCounts } from '../../platform/crawlers';
import type { Core } from '@strapi/strapi';
import type { z } from 'zod/v4';
import type { Context } from 'koa';
import type { ActionName } from '../../controllers';
import rateLimitMiddleware from '../../platform/rate-limit.middleware';
import type { DetailKind, ViewCounter } from '../content/content.service';
import { getService } from '../../platform/get-service';
import { PLUGIN_ID } from '../../platform/plugin-id';
import { type commentInput, parseIdentifier, validateCommentBody, parseRootsQuery } from '../comments';
import { writeDeepResults } from './deep-results';
import type { Nexus, PluginTypes } from './nexus';
import { COMMENT_INPUT_OMITS, outputTypes } from './output-types';


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

/** BagCommentInput: the create shape's fields but those GraphQL leaves out (output-types.ts); absent ones are null. */
type CommentInputArgs = { [K in Exclude<keyof z.input<typeof commentInput>, (typeof COMMENT_INPUT_OMITS)[number]>]: z.input<typeof commentInput>[K] | null };

interface CreateCommentArgs {
  data: CommentInputArgs;
  locale?: string | null;
}

const localeOf = (args: { locale?: string | null }) => ({ locale: args.locale ?? undefined });

/**
 * One view per document per operation: aliases reading one article or page in one request add a single view, and all
 * show the count that includes it (later aliases wait for the first one's count). Keyed on the operation's context,
 * which the GraphQL plugin makes per request.
 */
const viewsByOperation = new WeakMap<ResolverContext, Map<string, Promise<number | null>>>();

const countOncePerOperation =
  (strapi: Core.Strapi, context: ResolverContext): ViewCounter =>
  (uid, documentId, locale) => {
    let counted = viewsByOperation.get(context);
    if (!counted) {
      counted = new Map();
      viewsByOperation.set(context, counted);
    }
    const key = `${uid}:${documentId}`;
    let count = counted.get(key);
    if (!count) {
      // A crawler's read counts nothing, as over REST (docs/readers.md#what-counts).
      const agent = (context as { koaContext?: { get(name: string): string } }).koaContext?.get('User-Agent');
      const views = getService(strapi, 'views');
      count = readCounts(getService(strapi, 'settings').file().views.countBots, agent) ? views.increment(uid, documentId, locale) : views.current(uid, documentId);
      counted.set(key, count);
    }
    return count;
  };

export const registerPluginQueries = (strapi: Core.Strapi, pluginTypes: PluginTypes): void => {
  // bagMenu's item tree is as deep as the menu, like REST's answer.
  writeDeepResults(strapi);

  const detail =
    (kind: DetailKind): Resolver<SlugArgs> =>
    async (_parent, args, context) => {
      const data = await getService(strapi, 'content').viewDetail(kind, args.slug, context.state.auth, {
        ...localeOf(args),
        countView: countOncePerOperation(strapi, context),
      });
      // As REST: an article's `commentCount` (docs/readers.md#comment-counts).
      if (kind !== 'article' || !data) return data;
      return (await getService(strapi, 'readers').withCommentCounts([data]))[0];
    };

  const menu: Resolver<SlugArgs> = async (_parent, args, context) =>
    getService(strapi, 'menus').detail(args.slug, context.state.auth, localeOf(args));

  // The REST form of the paging parameters, so both go through one parser (features/comments/thread.ts parseRootsQuery).
  // Comment threads are per article document: `locale` is accepted (an unknown one refused) and has no effect.
  const thread: Resolver<ThreadArgs> = async (_parent, args) => {
    await getService(strapi, 'locales').resolve(args.locale ?? undefined);
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
    await getService(strapi, 'locales').resolve(args.locale ?? undefined);
    const config = await getService(strapi, 'settings').get();
    // Every field of the input, as the REST body has it (a null argument is an absent field).
    const body = Object.fromEntries(Object.entries(args.data).map(([key, value]) => [key, value ?? undefined]));
    const input = validateCommentBody(body, config.comments.maxLength);
    const user = context.state.user as { id: number; documentId: string } | null | undefined;
    return getService(strapi, 'comments').submit(input, user ? { id: user.id, documentId: user.documentId } : null, config);
  };

  strapi
    .plugin('graphql')
    .service('extension')
    .use(({ nexus }: { nexus: Nexus }) => {
      const slugArgs = { slug: nexus.nonNull(nexus.stringArg()), locale: nexus.stringArg() };
      const ownTypes = outputTypes(nexus);
      for (const type of ownTypes) pluginTypes.add(type.name);
      return {
        types: [
          ...ownTypes,
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
