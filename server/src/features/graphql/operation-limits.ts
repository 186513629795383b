/**
 * Limits on GraphQL operations that touch the plugin's types, checked as a validation rule of the GraphQL plugin's
 * Apollo server, so a refused operation runs no resolver (docs/graphql.md, "Operation limits"):
 *
 * - at most `graphql.maxRootFields` root fields returning a plugin type (each alias counts: every one runs a resolver);
 * - at most the host's `depthLimit` levels, or 10 when the host sets none (graphql-depth-limit's measure, so both
 *   agree);
 * - at most `graphql.maxCost`: every field counts 1 for each time it is resolved, and a list multiplies what is below
 *   it by the items it holds (its page as the query asks for it and the host's or the plugin's settings bound it).
 *
 * An operation touches the plugin when any of its fields is on, or returns, one of the plugin's types; the limits then
 * apply to the whole operation (a host type such as `UploadFile.related` can lead back to the plugin's). Operations on
 * other types only are the host's business.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Core } from '@strapi/strapi';
import type * as GraphqlModule from 'graphql';
import type {
  ASTVisitor,
  FieldNode,
  GraphQLNamedType,
  GraphQLOutputType,
  OperationDefinitionNode,
  SelectionSetNode,
  ValidationContext,
  ValidationRule,
} from 'graphql';
import type { PluginConfig } from '../../platform/config/schema';
import { getService } from '../../platform/get-service';
import type { PluginTypes } from './nexus';

type Graphql = typeof GraphqlModule;

/** The depth limit when the host sets none. */
export const DEFAULT_DEPTH_LIMIT = 10;
/** The page assumed for a list whose size a variable gives, when the host's `maxLimit` does not bound it. */
const UNBOUNDED_PAGE = 100;
/** The host's own defaults (graphql plugin config, `@strapi/utils` pagination). */
const HOST_DEFAULT_LIMIT = 10;

interface Limits {
  maxRootFields: number;
  maxDepth: number;
  maxCost: number;
}

/** What the host's pagination turns a requested page size into, and what it assumes when none is given. */
interface Pages {
  /** Items a list holds when the query does not say. */
  byDefault: number;
  /** Items a list may hold when the query says it in a variable (or `-1`, "all"). */
  unknown: number;
  /** A requested page size as the host caps it. */
  capped: (requested: number) => number;
}

interface Measure {
  /** Levels below the selection set's fields (graphql-depth-limit's depth). */
  depth: number;
  /** Fields resolved for one instance of the selection set's parent. */
  cost: number;
  /** Whether any field is on, or returns, one of the plugin's types. */
  touches: boolean;
}

const NOTHING: Measure = { depth: 0, cost: 0, touches: false };

const positiveNumber = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined;

/**
 * The graphql-js the GraphQL plugin runs: errors must be its `GraphQLError` (the plugin has no graphql dependency
 * of its own, and a second copy of graphql-js refuses objects of the first).
 */
const hostGraphql = (strapi: Core.Strapi): Graphql => {
  const plugins = strapi.config.get('enabledPlugins') as Record<string, { pathToPlugin?: string } | undefined> | undefined;
  const pluginPath = plugins?.graphql?.pathToPlugin;
  if (!pluginPath) throw new Error('cms-plugin-bag: cannot locate the GraphQL plugin to limit its operations');
  return createRequire(path.join(pluginPath, 'package.json'))('graphql') as Graphql;
};

/** The host's pagination of its generated lists (`defaultLimit`, `maxLimit`), which bounds every list but the plugin's own. */
const hostPages = (strapi: Core.Strapi): Pages => {
  const maxLimit = positiveNumber(strapi.config.get('plugin::graphql.maxLimit'));
  const capped = (requested: number) => (maxLimit === undefined ? requested : Math.min(requested, maxLimit));
  return {
    byDefault: capped(positiveNumber(strapi.config.get('plugin::graphql.defaultLimit')) ?? HOST_DEFAULT_LIMIT),
    unknown: maxLimit ?? UNBOUNDED_PAGE,
    capped,
  };
};

/**
 * The plugin's own lists, bounded by its configuration rather than by the host's pagination: a thread page (its
 * `pageSize` argument, as REST's) and the replies shown under each of its roots.
 */
const ownPages = ({ comments }: PluginConfig): Record<string, Pages> => {
  const { pageSize, maxPageSize, replies } = comments.thread;
  return {
    'Query.bagCommentThread': { byDefault: pageSize, unknown: maxPageSize, capped: (requested) => Math.min(requested, maxPageSize) },
    'BagCommentRoot.replies': { byDefault: replies, unknown: replies, capped: () => replies },
  };
};

const limitsOf = (strapi: Core.Strapi, { graphql }: PluginConfig): Limits => ({
  maxRootFields: graphql.maxRootFields,
  maxDepth: positiveNumber(strapi.config.get('plugin::graphql.depthLimit')) ?? DEFAULT_DEPTH_LIMIT,
  maxCost: graphql.maxCost,
});

/**
 * The page a field's arguments ask for: `pagination: { limit | pageSize }` or `pageSize`; undefined when the field
 * takes no such argument.
 */
const requestedPage = (gql: Graphql, field: FieldNode, takes: Set<string>, pages: Pages): number | undefined => {
  if (!takes.has('pagination') && !takes.has('pageSize')) return undefined;
  const { Kind } = gql;
  const fromValue = (value: GraphqlModule.ValueNode | undefined): number | undefined => {
    if (value === undefined || value.kind === Kind.NULL) return undefined;
    if (value.kind !== Kind.INT) return pages.unknown;
    const requested = Number(value.value);
    return requested === -1 ? pages.unknown : pages.capped(Math.max(requested, 1));
  };
  for (const argument of field.arguments ?? []) {
    if (argument.name.value === 'pageSize') return fromValue(argument.value) ?? pages.byDefault;
    if (argument.name.value !== 'pagination') continue;
    if (argument.value.kind !== Kind.OBJECT) return argument.value.kind === Kind.NULL ? pages.byDefault : pages.unknown;
    const size = argument.value.fields.find((entry) => entry.name.value === 'limit' || entry.name.value === 'pageSize');
    return fromValue(size?.value) ?? pages.byDefault;
  }
  return pages.byDefault;
};

/** A validation rule refusing the operations that touch `pluginTypes` and exceed the limits. */
export const operationLimits = (strapi: Core.Strapi, pluginTypes: PluginTypes): ValidationRule => {
  let setup: { gql: Graphql; limits: Limits; hostPages: Pages; ownPages: Record<string, Pages> } | undefined;

  return (context: ValidationContext): ASTVisitor => {
    if (!setup) {
      const config = getService(strapi, 'settings').file();
      setup = { gql: hostGraphql(strapi), limits: limitsOf(strapi, config), hostPages: hostPages(strapi), ownPages: ownPages(config) };
    }
    const { gql, limits } = setup;
    const pagesOf = (parent: GraphQLNamedType | undefined, field: string) => setup!.ownPages[`${parent?.name}.${field}`] ?? setup!.hostPages;
    const { Kind, GraphQLError, getNamedType, getNullableType, isListType, isObjectType, isInterfaceType } = gql;
    const schema = context.getSchema();
    const ours = (type: GraphQLNamedType | undefined | null) => type !== undefined && type !== null && pluginTypes.has(type.name);
    const fieldsOf = (type: GraphQLNamedType | undefined | null) =>
      type && (isObjectType(type) || isInterfaceType(type)) ? type.getFields() : undefined;

    // Fragments are measured once per page they sit in (a fragment spread twice in each of its parents would
    // otherwise cost exponential time); one being measured is skipped where it recurs (a cycle, refused by the
    // host's own NoFragmentCycles rule).
    const fragmentMeasures = new Map<string, Measure>();
    const measuring = new Set<string>();

    const measure = (selectionSet: SelectionSetNode, parent: GraphQLNamedType | undefined, page: number | undefined): Measure => {
      let depth = 0;
      let cost = 0;
      let touches = false;
      const add = (part: Measure, depthOfPart: number) => {
        depth = Math.max(depth, depthOfPart);
        cost += part.cost;
        touches ||= part.touches;
      };
      for (const selection of selectionSet.selections) {
        if (selection.kind === Kind.FIELD) {
          if (selection.name.value.startsWith('__')) continue;
          const definition = fieldsOf(parent)?.[selection.name.value];
          const type: GraphQLOutputType | undefined = definition?.type;
          const named = type ? getNamedType(type) : undefined;
          const pages = pagesOf(parent, selection.name.value);
          const own = requestedPage(gql, selection, new Set(definition?.args.map((arg) => arg.name) ?? []), pages);
          const isList = type !== undefined && isListType(getNullableType(type));
          const items = isList ? (own ?? page ?? pages.byDefault) : 1;
          const below = selection.selectionSet ? measure(selection.selectionSet, named, isList ? undefined : own) : NOTHING;
          add(
            { depth: 0, cost: 1 + items * below.cost, touches: below.touches || ours(parent) || ours(named) },
            selection.selectionSet ? below.depth + 1 : 0,
          );
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          const type = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) ?? undefined : parent;
          const part = measure(selection.selectionSet, type, page);
          add(part, part.depth);
        } else {
          const name = selection.name.value;
          const key = `${name}@${page ?? ''}`;
          let part = fragmentMeasures.get(key);
          if (part === undefined) {
            const fragment = context.getFragment(name);
            if (!fragment || measuring.has(name)) continue;
            measuring.add(name);
            part = measure(fragment.selectionSet, schema.getType(fragment.typeCondition.name.value) ?? undefined, page);
            measuring.delete(name);
            fragmentMeasures.set(key, part);
          }
          add(part, part.depth);
        }
      }
      return { depth, cost, touches };
    };

    /** The response keys of the root fields returning a plugin type, through fragments at the root. */
    const pluginRootKeys = (selectionSet: SelectionSetNode, root: GraphQLNamedType, keys: Set<string>, seen: Set<string>) => {
      for (const selection of selectionSet.selections) {
        if (selection.kind === Kind.FIELD) {
          const definition = fieldsOf(root)?.[selection.name.value];
          if (definition && ours(getNamedType(definition.type))) keys.add(selection.alias?.value ?? selection.name.value);
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          pluginRootKeys(selection.selectionSet, root, keys, seen);
        } else if (!seen.has(selection.name.value)) {
          seen.add(selection.name.value);
          const fragment = context.getFragment(selection.name.value);
          if (fragment) pluginRootKeys(fragment.selectionSet, root, keys, seen);
        }
      }
      return keys;
    };

    const refuse = (operation: OperationDefinitionNode, message: string) => {
      const name = operation.name ? `Operation '${operation.name.value}'` : 'Operation';
      context.reportError(new GraphQLError(`${name} ${message}`, { nodes: [operation] }));
    };

    return {
      OperationDefinition(operation) {
        const root = schema.getRootType(operation.operation) ?? undefined;
        if (!root) return;
        const { depth, cost, touches } = measure(operation.selectionSet, root, undefined);
        if (!touches) return;
        const { maxRootFields, maxDepth, maxCost } = limits;
        const rootFields = pluginRootKeys(operation.selectionSet, root, new Set(), new Set()).size;
        if (rootFields > maxRootFields) {
          refuse(operation, `has ${rootFields} root fields of cms-plugin-bag; at most ${maxRootFields} are allowed`);
        } else if (depth > maxDepth) {
          refuse(operation, `is ${depth} levels deep; at most ${maxDepth} are allowed`);
        } else if (cost > maxCost) {
          refuse(operation, `costs ${cost}; at most ${maxCost} are allowed (each field resolved counts 1, lists by their page size)`);
        }
      },
    };
  };
};

const APOLLO_CONFIG = 'plugin::graphql.apolloServer';

/**
 * Adds the rule to the GraphQL plugin's Apollo server (its `apolloServer.validationRules`, which it appends to its
 * own depth limit); read when it starts the server in its bootstrap, so setting it in register is in time.
 */
export const limitOperations = (strapi: Core.Strapi, pluginTypes: PluginTypes): void => {
  const apolloServer = (strapi.config.get(APOLLO_CONFIG) ?? {}) as { validationRules?: unknown[] } & Record<string, unknown>;
  const validationRules = [...(apolloServer.validationRules ?? []), operationLimits(strapi, pluginTypes)];
  strapi.config.set(APOLLO_CONFIG, { ...apolloServer, validationRules });
};
