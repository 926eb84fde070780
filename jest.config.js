/** One jest run for the whole tree: unit tests and integration tests against real Postgres, Redis and NATS. */
module.exports = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      { jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } },
    ],
    // The app's pages (services/web): TSX rendered by preact on the server.
    '^.+\\.tsx$': [
      '@swc/jest',
      {
        jsc: {
          target: 'es2022',
          parser: { syntax: 'typescript', tsx: true },
          transform: { react: { runtime: 'automatic', importSource: 'preact' } },
        },
        module: { type: 'commonjs' },
      },
    ],
  },
  testMatch: [
    '<rootDir>/libs/*/test/**/*.test.ts',
    '<rootDir>/services/*/test/**/*.test.ts',
    '<rootDir>/tests/**/*.test.ts',
  ],
  globalSetup: '<rootDir>/tests/support/global-setup.ts',
  globalTeardown: '<rootDir>/tests/support/global-teardown.ts',
  testTimeout: 60000,
};
