/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.(t|j)sx?$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' } }],
  },
  // The plugin's and the playground's built output are loaded by Strapi as they are, like in production.
  transformIgnorePatterns: ['/node_modules/', '<rootDir>/dist/', '<rootDir>/playground/dist/'],
  testMatch: ['<rootDir>/tests/**/*.test.ts', '<rootDir>/server/src/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/playground/', '<rootDir>/dist/'],
  globalSetup: '<rootDir>/tests/global-setup.ts',
  testTimeout: 60_000,
};
