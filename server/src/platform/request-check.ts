/**
 * The declared request is the check (docs/architecture.md#requests): a route's `request` (params, query, JSON body,
 * shapes in `features/<feature>/*.shapes.ts`) is what the host's OpenAPI document shows, and `checked(request, …)`
 * parses the same shapes before the action runs and hands it the parsed, typed value. A refusal is the host's
 * ValidationError (400) worded by platform/shapes/parse.ts; params are checked first, then the query, then the body.
 *
 * Rules that read the settings (the comment's `comments.maxLength`, the thread's page sizes) or the host's
 * configuration (register's `allowedFields`): `declareRequest(static, { current })`. The route declares the static
 * request, for the document; `current(config, strapi)` builds the same request with the configured limits, and is
 * what a request is checked against. It is built once per settings object (the settings store caches it, so this is
 * once per change) and kept.
 *
 * Some values are declared for the document and read and checked by another step, with its own wording: the host's
 * REST list parameters (features/content/query-checks.ts checks them as the host does), an e-mail link's token (taken
 * out of the URL before anything logs it). `checkedElsewhere(shape)` marks them: they are handed over as they came.
 */
import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { z } from 'zod/v4';
import type { PluginConfig } from './config/schema';
import { getService } from './get-service';
import { isRecord } from './is-record';
import { checkedElsewhere, isCheckedElsewhere } from './shapes/fields';
import { parseShape } from './shapes/parse';
import type { ChecksAs, DeclaredRequest, Shapes } from './shapes/declared-request';

interface CheckOptions<C extends DeclaredRequest> {
  /** One issue, the first (platform/shapes/parse.ts `first`); a body that is not an object then reads as `{}`. */
  first?: boolean;
  /**
   * The request as the current settings make it: the same keys with the configured limits. It may also give the
   * action what the document cannot show (the comment's REST envelope unwrapped): its output is the action's input.
   */
  current?: (config: PluginConfig, strapi: Core.Strapi) => C;
}

const OPTIONS = Symbol('request-check');
type Declared<R extends DeclaredRequest> = R & { [OPTIONS]?: CheckOptions<DeclaredRequest> };

/** A route's request and how it is checked; the route declares it as `request`, the action as `checked(request, …)`. */
export const declareRequest = <R extends DeclaredRequest, C extends DeclaredRequest = R>(request: R, options: CheckOptions<C> = {}): R & ChecksAs<C> =>
  Object.defineProperty(request, OPTIONS, { value: options, enumerable: false }) as R & ChecksAs<C>;

export { checkedElsewhere };

type Output<S> = S extends Shapes ? { [K in keyof S]: S[K] extends z.ZodType ? z.output<S[K]> : never } : Record<string, never>;
type BodyOf<R extends DeclaredRequest> = R['body'] extends { 'application/json': infer S extends z.ZodType } ? z.output<S> : undefined;

interface Input<R extends DeclaredRequest> {
  params: Output<R['params']>;
  query: Output<R['query']>;
  body: BodyOf<R>;
}
/** What an action receives: each part parsed by its shapes (the keys they name, nothing else). */
export type RequestInput<R extends DeclaredRequest> = R extends ChecksAs<infer C> ? (C extends DeclaredRequest ? Input<C> : Input<R>) : Input<R>;

const objects = new WeakMap<Shapes, z.ZodType>();
/** The record's keys as one object schema (those checked elsewhere left out), built once. */
const objectOf = (shapes: Shapes): z.ZodType => {
  let schema = objects.get(shapes);
  if (!schema) {
    schema = z.object(Object.fromEntries(Object.entries(shapes).filter(([, shape]) => !isCheckedElsewhere(shape))));
    objects.set(shapes, schema);
  }
  return schema;
};

const current = new WeakMap<object, WeakMap<PluginConfig, DeclaredRequest>>();
const requestFor = async (request: Declared<DeclaredRequest>, strapi: Core.Strapi | undefined): Promise<DeclaredRequest> => {
  const build = request[OPTIONS]?.current;
  if (!build) return request;
  if (!strapi) throw new Error('A request checked against the settings needs Strapi');
  const config = await getService(strapi, 'settings').get();
  let built = current.get(request);
  if (!built) current.set(request, (built = new WeakMap()));
  let made = built.get(config);
  if (!made) built.set(config, (made = build(config, strapi)));
  return made;
};

type Request = { params?: unknown; query?: unknown; body?: unknown };

/** Parses `raw` against `request` (the current one, when it reads settings); throws the host's ValidationError. */
export const checkRequest = async <R extends DeclaredRequest>(request: R, raw: Request, strapi?: Core.Strapi): Promise<RequestInput<R>> => {
  const first = (request as Declared<R>)[OPTIONS]?.first ?? false;
  const shapes = await requestFor(request, strapi);
  const part = (declared: Shapes | undefined, value: unknown) => {
    if (!declared) return {};
    const given = isRecord(value) ? value : {};
    const passed = Object.fromEntries(Object.entries(declared).filter(([key, shape]) => isCheckedElsewhere(shape) && key in given).map(([key]) => [key, given[key]]));
    return { ...(parseShape(objectOf(declared), given, { first }) as object), ...passed };
  };
  const params = part(shapes.params, raw.params);
  const query = part(shapes.query, raw.query);
  const bodyShape = shapes.body?.['application/json'];
  const rawBody = first && !isRecord(raw.body) ? {} : (raw.body ?? {});
  const body = !bodyShape ? undefined : isCheckedElsewhere(bodyShape) ? raw.body : parseShape(bodyShape, rawBody, { first });
  return { params, query, body } as RequestInput<R>;
};

const checks = new WeakMap<object, DeclaredRequest>();

/**
 * A controller action whose request is checked against `request` (the one its route declares) before `action`
 * runs; `action` gets the parsed value. `checkedRequestOf` reads which request an action checks.
 */
export const checked = <R extends DeclaredRequest>(request: R, action: (ctx: Context, input: RequestInput<R>) => Promise<void>) => {
  const handler = async (ctx: Context): Promise<void> => {
    const input = await checkRequest(request, { params: ctx.params, query: ctx.query, body: ctx.request.body }, globalThis.strapi);
    await action(ctx, input);
  };
  checks.set(handler, request);
  return handler;
};

export const checkedRequestOf = (action: unknown): DeclaredRequest | undefined =>
  typeof action === 'function' ? checks.get(action) : undefined;

type Controllers = Record<string, Record<string, unknown>>;

/**
 * The routes whose action does not check the request they declare (`checked` with that same request): none, or the
 * plugin refuses to start (server/src/register). `controllers` are the built controllers, by name.
 */
export const uncheckedRoutes = (routes: readonly { method: string; path: string; handler: string; request?: DeclaredRequest }[], controllers: Controllers): string[] =>
  routes
    .filter((route) => {
      const [controller, action] = route.handler.split('.');
      const checks = checkedRequestOf(controllers[controller]?.[action]);
      return route.request ? checks !== route.request : checks !== undefined;
    })
    .map((route) => `${route.method} ${route.path} (${route.handler})`);
