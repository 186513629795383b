/**
 * `npm run test:unit`: the pure modules' tests (docs/testing.md#unit-tests-of-pure-modules), with no build, no
 * database and no global set-up. `npm test` runs the same files through jest.config.js, once.
 */
const { transform, transformIgnorePatterns } = require('./jest.config');

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  transform,
  transformIgnorePatterns,
  testMatch: ['<rootDir>/server/src/**/*.test.ts', '<rootDir>/tests/unit/**/*.test.ts'],
  testPathIgnorePatterns: [
    '/node_modules/',
    // It loads the built server bundle (dist/) to see what a start loads: it needs `npm run build`.
    '<rootDir>/tests/unit/lazy-dependencies.test.ts',
  ],
  // The two cores of CI; the files share nothing.
  maxWorkers: 2,
  testTimeout: 30_000,
};
