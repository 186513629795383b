/**
 * A shape built on its first use instead of when the plugin loads (docs/architecture.md#loaded-on-first-use):
 * zod builds every schema object eagerly, and the plugin's few hundred of them made up most of the bundle's load time
 * at every boot, while a route's shapes are needed only by its first request (or the OpenAPI document, or GraphQL).
 *
 * `lazyShape(() => z.object(…))` is a stand-in with the schema's type that builds it when anything reads it (a
 * parse, `.shape`, zod composing it into another schema) and forwards to it from then on; the same stand-in object
 * is the shape everywhere, so a route declaration, the validation and the GraphQL types still share one schema per
 * request and answer. A record of schemas (a route's `params` or `query`) can be one too. Only reading its type tag
 * (`Object.prototype.toString`, what the host's route check does with a route's `response`) leaves it unbuilt.
 *
 * zod stores descriptions in its registry under the built schema; the stand-in gets the same entry, so a shape met
 * through it (a field of another shape, a route's `response`) keeps its description in the OpenAPI document. Code that
 * keys maps by schema identity compares `builtShape(schema)`: a wrapper zod derives (`.optional()`, `.nullable()`)
 * holds the built schema, not the stand-in.
 */
import { z } from 'zod/v4';

const built = new WeakMap<object, object>();

export const lazyShape = <T extends object>(make: () => T): T => {
  let value: T | undefined;
  const target = (): T => {
    if (value === undefined) {
      value = make();
      built.set(proxy, value);
      // A record of schemas has no registry entry of its own.
      const meta = '_zod' in value ? z.globalRegistry.get(value as unknown as z.core.$ZodType) : undefined;
      if (meta !== undefined) {
        // The id (none of the plugin's shapes has one) stays with the built schema: the registry refuses it twice.
        const { id: _id, ...rest } = meta as { id?: string };
        z.globalRegistry.add(proxy as unknown as z.core.$ZodType, rest);
      }
    }
    return value;
  };
  let internals: object | undefined;
  const proxy: T = new Proxy({} as T, {
    get: (_, key) => {
      if (key === Symbol.toStringTag && value === undefined) return undefined;
      const item = Reflect.get(target(), key);
      if (key !== '_zod' || typeof item !== 'object' || item === null) return item;
      return (internals ??= convertedAsStandIn(proxy, value as object, item));
    },
    has: (_, key) => Reflect.has(target(), key),
    ownKeys: () => Reflect.ownKeys(target()),
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(target(), key);
      return descriptor && { ...descriptor, configurable: true };
    },
    getPrototypeOf: () => Reflect.getPrototypeOf(target()),
    set: (_, key, item) => Reflect.set(target(), key, item),
    defineProperty: (_, key, descriptor) => Reflect.defineProperty(target(), key, descriptor),
    deleteProperty: (_, key) => Reflect.deleteProperty(target(), key),
  });
  return proxy;
};

type Seen = { seen: Map<object, unknown> };
type ProcessJsonSchema = (ctx: Seen, json: unknown, params: unknown) => unknown;

/**
 * The built schema's internals (`_zod`) as the stand-in shows them. zod's JSON Schema conversion keeps what it found
 * per schema object (`ctx.seen`), under the stand-in it was given, and a wrapper's converter (optional, nullable,
 * default…) then looks up the built schema it closes over: during that call the built schema's entry is the
 * stand-in's. Everything else reads and writes the built schema's own internals.
 */
const convertedAsStandIn = (proxy: object, schema: object, internals: object): object =>
  new Proxy(internals, {
    get: (target, key) => {
      const item = Reflect.get(target, key) as unknown;
      if (key !== 'processJSONSchema' || typeof item !== 'function') return item;
      return (ctx: Seen, json: unknown, params: unknown) => {
        const own = ctx.seen.get(schema);
        const standIn = ctx.seen.get(proxy);
        if (standIn !== undefined) ctx.seen.set(schema, standIn);
        try {
          return (item as ProcessJsonSchema).call(target, ctx, json, params);
        } finally {
          if (own === undefined) ctx.seen.delete(schema);
          else ctx.seen.set(schema, own);
        }
      };
    },
  });

/** The schema a `lazyShape` stands for (built if it was not yet), or `schema` itself when it is not a stand-in. */
export const builtShape = <T extends object>(schema: T): T => {
  if (built.has(schema)) return built.get(schema) as T;
  // Reading any property builds a stand-in; a schema that is not one is unchanged by it.
  void (schema as { _zod?: unknown })._zod;
  return (built.get(schema) as T | undefined) ?? schema;
};
