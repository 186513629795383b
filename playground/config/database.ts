import path from 'path';

export default ({ env }) => {
  const client = env('DATABASE_CLIENT', 'sqlite');

  if (client === 'postgres') {
    // Bounded waits, so a request never hangs while the database is away: connecting (pg) and waiting for a pooled
    // connection (knex). Dead connections are dropped by knex and replaced once the server is back.
    const connectTimeout = env.int('DATABASE_CONNECT_TIMEOUT', 5000);
    return {
      connection: {
        client: 'postgres',
        connection: env('DATABASE_URL')
          ? { connectionString: env('DATABASE_URL'), connectionTimeoutMillis: connectTimeout }
          : {
              host: env('DATABASE_HOST', '127.0.0.1'),
              port: env.int('DATABASE_PORT', 5432),
              database: env('DATABASE_NAME', 'strapi'),
              user: env('DATABASE_USERNAME', 'strapi'),
              password: env('DATABASE_PASSWORD', 'strapi'),
              schema: env('DATABASE_SCHEMA', 'public'),
              connectionTimeoutMillis: connectTimeout,
            },
        pool: { min: env.int('DATABASE_POOL_MIN', 0), max: env.int('DATABASE_POOL_MAX', 10) },
        acquireConnectionTimeout: env.int('DATABASE_CONNECTION_TIMEOUT', 10000),
      },
    };
  }

  return {
    connection: {
      client: 'sqlite',
      connection: {
        filename: path.resolve(__dirname, '..', '..', env('DATABASE_FILENAME', '.tmp/data.db')),
      },
      useNullAsDefault: true,
      pool: {
        // Write-ahead log with synchronous=NORMAL: the usual production setting for SQLite. Every view and rate-limit
        // count is a small write; in the default rollback-journal mode each one waits for several fsyncs.
        afterCreate: (connection: { pragma: (statement: string) => unknown }, done: (error?: Error) => void) => {
          connection.pragma('journal_mode = WAL');
          connection.pragma('synchronous = NORMAL');
          done();
        },
      },
    },
  };
};
