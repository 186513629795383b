/**
 * Statements on a PostgreSQL server's `postgres` database: creating, copying and dropping the throwaway databases of
 * the tests (tests/helpers/strapi.ts), the benchmark (bench/lib/server-process.mjs) and the discovery scripts. CommonJS
 * with a .d.ts beside it, so plain node (.mjs) and jest (TypeScript) load the same file.
 *
 * The connection is the DATABASE_* variables of `env` (process.env unless given), as `scripts/postgres.sh env`
 * prints them; the playground's config/database.ts reads the same ones.
 */
const NAME = /^[A-Za-z0-9_]+$/;

const connectionOf = (env = process.env) => ({
  host: env.DATABASE_HOST ?? '127.0.0.1',
  port: Number(env.DATABASE_PORT ?? 5432),
  user: env.DATABASE_USERNAME ?? 'strapi',
  password: env.DATABASE_PASSWORD ?? 'strapi',
});

/** Runs `statements` in order on the server's `postgres` database, on one connection closed afterwards. */
async function postgresAdmin(statements, env = process.env) {
  const { Client } = require('pg');
  const connection = connectionOf(env);
  const client = new Client({ ...connection, database: 'postgres' });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(
      `cannot reach PostgreSQL at ${connection.host}:${connection.port} (${error.message}); ` +
        'start it with `scripts/postgres.sh start` (PGPORT picks the port)',
    );
  }
  try {
    for (const statement of statements) await client.query(statement);
  } finally {
    await client.end();
  }
}

/** Database names go into SQL as identifiers: letters, digits and `_` only. */
const checkedName = (name) => {
  if (!NAME.test(name)) throw new Error(`not a database name this harness makes: ${JSON.stringify(name)}`);
  return name;
};

/** A new, empty database; template0 copies nothing but the bare catalog, so creation takes a few milliseconds. */
const createDatabase = (name, env = process.env) =>
  postgresAdmin([`CREATE DATABASE "${checkedName(name)}" TEMPLATE template0 ENCODING 'UTF8'`], env);

/**
 * A new database copied from `template` (schema, rows, triggers): the tests' per-run template
 * (tests/helpers/template.ts). Nobody may be connected to the template while it is copied.
 */
const copyDatabase = (name, template, env = process.env) =>
  postgresAdmin([`CREATE DATABASE "${checkedName(name)}" TEMPLATE "${checkedName(template)}"`], env);

/** Drops the database if it exists, closing the connections still open on it. */
const dropDatabase = (name, env = process.env) =>
  postgresAdmin([`DROP DATABASE IF EXISTS "${checkedName(name)}" WITH (FORCE)`], env);

module.exports = { connectionOf, postgresAdmin, createDatabase, copyDatabase, dropDatabase };
