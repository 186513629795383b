/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.(t|j)sx?$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' } }],
  },
  // The plugin's and the playground's built output are loaded by Strapi as they are, like in production. The
  // sanitizer's parser packages are ES modules only (Node loads them with require(esm), Jest's loader does not).
  transformIgnorePatterns: ['^(?!.*/node_modules/sanitize-html/node_modules/).*/node_modules/', '<rootDir>/dist/', '<rootDir>/playground/dist/'],
  testMatch: ['<rootDir>/tests/**/*.test.ts', '<rootDir>/server/src/**/*.test.ts'],
  // tests/multi runs several Strapi processes on one PostgreSQL database: collected only on PostgreSQL runs. The front
  // ends' browser files (the starter, the playground's example pages) run on SQLite only: everything they do goes
  // through the plugin's REST routes, which tests/api runs on both databases (docs/testing.md#browser-tests).
  testPathIgnorePatterns: [
    '/node_modules/',
    '<rootDir>/playground/',
    '<rootDir>/dist/',
    ...(process.env.DATABASE_CLIENT === 'postgres'
      ? ['<rootDir>/tests/browser/(starter|site|examples|account-page|mfa)[^/]*\\.test\\.ts$']
      : ['<rootDir>/tests/multi/']),
  ],
  // Two test files at a time (CI's two cores): each boots its own Strapi on its own database (a copy of the run's
  // template, tests/helpers/template.ts) and listens on a port of its own; the one file that stops PostgreSQL stops a
  // cluster of its own (tests/multi/database-restart.test.ts).
  maxWorkers: 2,
  // A worker keeps what each file's Strapi left on its heap (the heap grows by 100–300 MB a file); past 1 GB it is
  // replaced before its next file, so a file that measures the heap or serves ten thousand requests does not run on a
  // heap that collects for seconds at a time.
  workerIdleMemoryLimit: '1GB',
  globalSetup: '<rootDir>/tests/global-setup.ts',
  globalTeardown: '<rootDir>/tests/global-teardown.ts',
  testTimeout: 60_000,
};
