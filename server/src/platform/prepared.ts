/**
 * Statements run on every request of a kind (a cache hit's version stamps, a list's view counts, a detail's view
 * count, a detail's other locales), run on the driver's own connection, past knex's query builder: on SQLite a
 * better-sqlite3 statement prepared once per connection and kept; on PostgreSQL a named statement, which the server
 * parses and plans once per connection. Built with knex and prepared anew at each call, the first two took a fifth
 * of a cached list's CPU (docs/benchmark.md, "Where a cache hit spends its time"). The connection still comes from
 * knex's pool, so a statement waits for a transaction holding it as a knex query would, and an outage fails as one
 * would. They run past the Query Engine too: its lifecycle hooks do not see them.
 */
import crypto from 'crypto';
import type { Core } from '@strapi/strapi';

/** One statement in each dialect: SQLite's text with `?` parameters, PostgreSQL's with `$1`, `$2`… */
export interface PreparedText {
  sqlite: string;
  postgres: string;
}

type Row = Record<string, unknown>;

interface SqliteStatement {
  all(...params: unknown[]): Row[];
}
interface SqliteConnection {
  prepare(text: string): SqliteStatement;
  transaction<T>(work: () => T): () => T;
}
interface PgConnection {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: Row[] }>;
}
interface PooledClient {
  acquireConnection(): Promise<unknown>;
  releaseConnection(connection: unknown): Promise<unknown>;
}

/** SQLite statements by connection, then by text: a handful of texts, each prepared once per connection. */
const sqliteStatements = new WeakMap<object, Map<string, SqliteStatement>>();
/** PostgreSQL statement names by text (a name stands for one text on every connection). */
const pgNames = new Map<string, string>();

/** A quoted identifier, schema-qualified on PostgreSQL when the database has a schema. */
export const qualifiedTable = (strapi: Core.Strapi, table: string) => {
  const schema = strapi.db.getSchemaName();
  return schema ? `${quoted(schema)}.${quoted(table)}` : quoted(table);
};
export const quoted = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;

const pgName = (text: string) => {
  let name = pgNames.get(text);
  if (!name) pgNames.set(text, (name = `bag_${crypto.createHash('sha1').update(text).digest('hex').slice(0, 20)}`));
  return name;
};

const sqliteStatement = (connection: SqliteConnection, text: string) => {
  let statements = sqliteStatements.get(connection);
  if (!statements) sqliteStatements.set(connection, (statements = new Map()));
  let statement = statements.get(text);
  if (!statement) statements.set(text, (statement = connection.prepare(text)));
  return statement;
};

/** Runs `text` with `params` and returns its rows (a statement with `RETURNING` too). */
export const runPrepared = async (strapi: Core.Strapi, text: PreparedText, params: unknown[]): Promise<Row[]> => {
  const client = strapi.db.connection.client as unknown as PooledClient;
  const connection = await client.acquireConnection();
  try {
    if (strapi.db.dialect.client === 'postgres') {
      const { rows } = await (connection as PgConnection).query({ name: pgName(text.postgres), text: text.postgres, values: params });
      return rows;
    }
    return sqliteStatement(connection as SqliteConnection, text.sqlite).all(...params);
  } finally {
    await client.releaseConnection(connection);
  }
};

/** A binding as knex's SQLite driver sends it (a Date as epoch ms, a boolean as 0 or 1). */
const sqliteBinding = (value: unknown) => (value instanceof Date ? value.valueOf() : typeof value === 'boolean' ? Number(value) : value);

/**
 * Runs a query built with knex's builder as a kept prepared statement (`runPrepared`): the builder still writes the
 * SQL, but a text seen before is not prepared again. For reads run on every request whose texts are few (they vary
 * only by the number of ids they take).
 */
export const runBuilt = async (strapi: Core.Strapi, query: { toSQL(): { sql: string; bindings: readonly unknown[]; toNative(): { sql: string; bindings: readonly unknown[] } } }): Promise<Row[]> => {
  const built = query.toSQL();
  if (strapi.db.dialect.client === 'postgres') {
    const native = built.toNative();
    return runPrepared(strapi, { sqlite: built.sql, postgres: native.sql }, [...native.bindings]);
  }
  return runPrepared(strapi, { sqlite: built.sql, postgres: built.sql }, built.bindings.map(sqliteBinding));
};

/**
 * SQLite only: runs `work` in ONE transaction on one connection, `run(text, params)` running each statement prepared
 * and kept as `runPrepared` does (better-sqlite3 answers synchronously, so `work` is synchronous). Several writes of
 * one request then cost one commit, not one each; a throw rolls them all back.
 */
export const sqliteTransaction = async <T>(strapi: Core.Strapi, work: (run: (text: string, params: unknown[]) => Row[]) => T): Promise<T> => {
  if (strapi.db.dialect.client === 'postgres') throw new Error('sqliteTransaction runs on SQLite only');
  const client = strapi.db.connection.client as unknown as PooledClient;
  const connection = (await client.acquireConnection()) as SqliteConnection;
  try {
    return connection.transaction(() => work((text, params) => sqliteStatement(connection, text).all(...params)))();
  } finally {
    await client.releaseConnection(connection);
  }
};
