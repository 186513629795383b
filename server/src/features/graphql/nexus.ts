/**
 * The types of what the host's GraphQL plugin hands to `extension.use` (its nexus instance) and calls in
 * `resolversConfig`. Type-only imports: the plugin never loads nexus or the GraphQL plugin itself.
 */
import type * as NexusModule from 'nexus';
import { publicAuthor } from '../../platform/shapes/common';
import { shapeTypes, type NamedShape } from './shape-types';

export type Nexus = typeof NexusModule;
export type ObjectDefinition = NexusModule.core.ObjectDefinitionBlock<string>;
export type InputDefinition = NexusModule.core.InputDefinitionBlock<string>;

export type Args = Record<string, unknown>;
export type Resolve = (parent: unknown, args: Args, context: unknown, info: unknown) => unknown;
/** A resolver middleware as the GraphQL plugin calls it (`resolversConfig[path].middlewares`). */
export type ResolverMiddleware = (resolve: Resolve, parent: unknown, args: Args, context: unknown, info: unknown) => unknown;

/**
 * The names of the plugin's types in the schema, its own and the generated ones (filled as the GraphQL plugin builds
 * the schema; operation-limits.ts reads it to tell the operations that touch the plugin).
 */
export type PluginTypes = Set<string>;

/** A user as the plugin shows it anywhere (`author` of articles, comments, threads): no e-mail, no account details. */
export const AUTHOR_TYPE = 'BagAuthor';

export const AUTHOR: NamedShape = {
  name: AUTHOR_TYPE,
  shape: publicAuthor,
  description: 'A user as the plugin shows it anywhere: no e-mail, no account details.',
};

export const authorType = (nexus: Nexus) => shapeTypes(nexus, [AUTHOR])[0];
