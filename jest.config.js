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
  // tests/multi runs several Strapi processes on one PostgreSQL database: collected only on PostgreSQL runs.
  testPathIgnorePatterns: [
    '/node_modules/',
    '<rootDir>/playground/',
    '<rootDir>/dist/',
    ...(process.env.DATABASE_CLIENT === 'postgres' ? [] : ['<rootDir>/tests/multi/']),
  ],
  globalSetup: '<rootDir>/tests/global-setup.ts',
  globalTeardown: '<rootDir>/tests/global-teardown.ts',
  testTimeout: 60_000,
};
