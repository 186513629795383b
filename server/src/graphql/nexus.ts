/**
 * The few parts of nexus (the schema builder the host's GraphQL plugin hands to `extension.use`) this plugin calls,
 * typed here so the plugin does not depend on nexus or on the GraphQL plugin.
 */
export interface FieldBuilder {
  id(name: string): void;
  string(name: string, config?: { description?: string }): void;
  field(name: string, config: { type: string; description?: string; resolve: (parent: never, args: never, context: never) => unknown }): void;
  nonNull: FieldBuilder;
}

export interface Nexus {
  objectType(config: { name: string; description?: string; definition(t: FieldBuilder): void }): unknown;
  extendType(config: { type: string; definition(t: FieldBuilder): void }): unknown;
  extendInputType(config: { type: string; definition(t: FieldBuilder): void }): unknown;
}

export type Args = Record<string, unknown>;
export type Resolve = (parent: unknown, args: Args, context: unknown, info: unknown) => unknown;
/** A resolver middleware as the GraphQL plugin calls it (`resolversConfig[path].middlewares`). */
export type ResolverMiddleware = (resolve: Resolve, parent: unknown, args: Args, context: unknown, info: unknown) => unknown;
