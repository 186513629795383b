/**
 * What the host's generated (shadow CRUD) schema may show of the plugin's types: the same as REST under /api/bag
 * shows the same caller (docs/graphql.md). Types and fields are switched off here, in register(),
 * because the GraphQL plugin builds its types in its bootstrap from these switches; the forced arguments are resolver
 * middlewares computed when the schema is built, so they see every attribute (i18n's `localizations` too) whatever
 * the plugins' order.
 */
import type { Core, UID } from '@strapi/strapi';
import { publicAuthor } from '../../platform/users';
import { PLUGIN_ID, uid } from '../../platform/plugin-id';
import { authorOfRow } from './restrictions.data';
import { AUTHOR_TYPE, authorType, type Args, type Nexus, type PluginTypes, type ResolverMiddleware } from './nexus';

const ARTICLE = uid('article');
const BANNER = uid('banner');
const COMMENT = uid('comment');

/** Generated user fields (`author`) are replaced by the BagAuthor type, so no e-mail is reachable from a plugin type. */
const AUTHOR_FIELDS: Array<{ uid: UID.ContentType; field: string }> = [
  { uid: ARTICLE, field: 'author' },
  { uid: COMMENT, field: 'author' },
];

/**
 * Comments: not listed by the generic queries (REST lists approved comments in a tree where a reply under a hidden
 * comment is hidden too, which a flat filtered list cannot match; `bagCommentThread` serves it), so the relations
 * leading to them are off as well, and the type keeps only what a public comment node shows.
 */
const COMMENT_FIELDS_OFF = ['status', 'ip', 'userAgent', 'reportCount', 'notifiedAt', 'parent', 'children'];

/** GraphQL filter arguments (before the GraphQL plugin maps them to the query engine's) every read of the type gets. */
const FORCED_FILTERS: Partial<Record<UID.ContentType, Record<string, unknown>>> = {
  [BANNER]: { isVisible: { eq: true } },
};

type Model = {
  uid: UID.ContentType;
  options?: { draftAndPublish?: boolean };
  attributes: Record<string, { type: string; relation?: string; target?: string }>;
};

const models = (strapi: Core.Strapi) => strapi.contentTypes as unknown as Record<string, Model | undefined>;
const pluginModels = (strapi: Core.Strapi): Model[] =>
  Object.values(models(strapi)).filter((model): model is Model => model !== undefined && model.uid.startsWith(`plugin::${PLUGIN_ID}.`));
/** The model a relation attribute points to (undefined for other attributes). */
const relationTarget = (strapi: Core.Strapi, attribute: Model['attributes'][string]) =>
  attribute.type === 'relation' && attribute.target ? models(strapi)[attribute.target] : undefined;

/** The arguments every read of `target` gets, whatever the caller sent: published versions only, plus its filters. */
const forcedArgs = (model: Model) => {
  const filters = FORCED_FILTERS[model.uid];
  const published = model.options?.draftAndPublish === true;
  if (!filters && !published) return undefined;
  const middleware: ResolverMiddleware = (resolve, parent, args, context, info) => {
    const forced: Args = { ...args };
    if (published) forced.status = 'published';
    if (filters) forced.filters = args.filters ? { and: [args.filters, filters] } : filters;
    return resolve(parent, forced, context, info);
  };
  return middleware;
};

export const restrictGeneratedSchema = (strapi: Core.Strapi, pluginTypes: PluginTypes): void => {
  const extension = strapi.plugin('graphql').service('extension');
  const ours = pluginModels(strapi);

  for (const model of ours) {
    // Writes go through the plugin's own routes and mutation only (validation, moderation, limits). The internal
    // tables are not content types (models/): the GraphQL plugin never sees them.
    extension.shadowCRUD(model.uid).disableMutations();
  }
  const comment = extension.shadowCRUD(COMMENT);
  comment.disableQueries();
  for (const field of COMMENT_FIELDS_OFF) comment.field(field).disable();
  extension.shadowCRUD(ARTICLE).field('comments').disable();
  // REST has no single banner: a detail by documentId would need its own visibility check for nothing.
  extension.shadowCRUD(BANNER).disableActions(['findOne']);
  for (const { uid: owner, field } of AUTHOR_FIELDS) extension.shadowCRUD(owner).field(field).disable();
  // Filters through a relation to a draft-and-publish type would match draft rows too (a way to probe drafts).
  for (const model of ours) {
    for (const [name, attribute] of Object.entries(model.attributes)) {
      if (relationTarget(strapi, attribute)?.options?.draftAndPublish) {
        extension.shadowCRUD(model.uid).field(name).disableFilters();
      }
    }
  }

  extension.use(({ nexus }: { nexus: Nexus }) => {
    const { naming } = strapi.plugin('graphql').service('utils');
    const typeName = (model: Model): string => naming.getTypeName(model);
    const resolversConfig: Record<string, { middlewares: ResolverMiddleware[] }> = {};
    for (const model of ours) {
      pluginTypes.add(typeName(model));
      pluginTypes.add(naming.getEntityResponseName(model));
      pluginTypes.add(naming.getEntityResponseCollectionName(model));
      pluginTypes.add(naming.getRelationResponseCollectionName(model));
    }
    pluginTypes.add(AUTHOR_TYPE);

    for (const model of ours) {
      const middleware = forcedArgs(model);
      if (!middleware) continue;
      for (const query of [naming.getFindQueryName(model), naming.getFindConnectionQueryName(model), naming.getFindOneQueryName(model)]) {
        resolversConfig[`Query.${query}`] = { middlewares: [middleware] };
      }
    }
    // Every relation field leading to such a type, `_connection` included (the GraphQL plugin lets a nested `status`
    // argument, or the root query's, choose drafts).
    for (const owner of ours) {
      for (const [name, attribute] of Object.entries(owner.attributes)) {
        const target = relationTarget(strapi, attribute);
        const middleware = target && forcedArgs(target);
        if (!middleware) continue;
        resolversConfig[`${typeName(owner)}.${name}`] = { middlewares: [middleware] };
        resolversConfig[`${typeName(owner)}.${name}_connection`] = { middlewares: [middleware] };
      }
    }

    // Only on types still in the schema (an app may switch one off with the same extension service).
    const shown = AUTHOR_FIELDS.filter(({ uid: owner }) => extension.shadowCRUD(owner).isEnabled());
    const authorFields = shown.map(({ uid: owner, field }) =>
      nexus.extendType({
        type: typeName(models(strapi)[owner] as Model),
        definition(t) {
          t.field(field, {
            type: AUTHOR_TYPE,
            async resolve(parent: { id?: number } | null) {
              if (parent?.id === undefined) return null;
              return publicAuthor(await authorOfRow(strapi, owner, parent, field));
            },
          });
        },
      }),
    );
    return { types: [authorType(nexus), ...authorFields], resolversConfig };
  });
};
