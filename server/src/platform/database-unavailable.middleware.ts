/**
 * Users & Permissions swallows every error while it looks up the caller's role and permissions, so when the
 * database is unreachable a content-API request is answered 401/403 as if the caller lacked rights: clients would
 * drop their tokens, or show a login form, for an outage. This outermost middleware notes every failed database
 * call made on behalf of the request (connection acquisition or query) and, when the request still ends in 401/403,
 * answers 503 in the host's error shape instead (what `strapi::errors` gives an http error). The request a call was
 * made for is the host's request context (an AsyncLocalStorage the host runs every request in): a second store of
 * the plugin's own would cost every promise of every request its propagation.
 */
import type { Core } from '@strapi/strapi';
import type { Context, Next } from 'koa';

const SERVICE_UNAVAILABLE = {
  data: null,
  error: { status: 503, name: 'ServiceUnavailableError', message: 'Service Unavailable', details: {} },
};

interface KnexClient {
  acquireConnection: (...args: unknown[]) => Promise<unknown>;
}

const databaseUnavailable = ({ strapi }: { strapi: Core.Strapi }) => {
  /** The requests a database call failed for. */
  const failed = new WeakSet<Context>();
  let instrumented = false;

  // The knex instance exists once the database is initialised (after register), hence on the first request.
  const instrument = () => {
    instrumented = true;
    const knex = strapi.db.connection;
    const markFailed = () => {
      const ctx = strapi.requestContext.get() as Context | undefined;
      if (ctx) failed.add(ctx);
    };
    knex.on('query-error', markFailed);
    const client = knex.client as unknown as KnexClient;
    const acquire = client.acquireConnection.bind(client);
    client.acquireConnection = (...args: unknown[]) =>
      acquire(...args).catch((error: unknown) => {
        markFailed();
        throw error;
      });
  };

  return async (ctx: Context, next: Next) => {
    if (!instrumented) instrument();
    await next();
    if (!failed.has(ctx) || (ctx.status !== 401 && ctx.status !== 403)) return;
    strapi.log.warn(`cms-plugin-bag: database unreachable while answering ${ctx.method} ${ctx.path}; answered 503`);
    ctx.status = 503;
    ctx.body = SERVICE_UNAVAILABLE;
  };
};

export default databaseUnavailable;
