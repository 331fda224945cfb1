import { defineConfig } from 'vitest/config';

// Two projects, told apart by where a test sits:
// - unit: tests beside their code (outside test/ and db/). No Postgres, no bundle; their setup finds or starts Redis. They may use
//   Redis or an in-process stand-in, as a module's own test can; `npx vitest run --project unit`.
// - stack: test/ (cross-process, integration, browser) and db/ (queries against Postgres). Their global setup
//   makes the migrated template database each test database is cloned from and builds dist/ (the one build of a
//   test run: `make test` and CI build nothing else); `npx vitest run --project stack`.
// A test that needs Postgres, a running stack or dist/ therefore goes in test/ (or db/ for a query's own test).
const STACK = ['test/**/*.test.{ts,tsx}', 'db/**/*.test.{ts,tsx}'];

export default defineConfig({
  test: {
    exclude: ['**/node_modules/**', 'dist/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['**/*.test.{ts,tsx}'],
          // Worker threads that each run many files, their modules loaded once: a fresh process per file spent most
          // of the run loading the same modules again. A unit test therefore leaves no global state behind (fake timers
          // restored, no module mocks, no process.env writes).
          pool: 'threads',
          isolate: false,
          // Redis only, found or started (dev/services): a machine with none at the default address still runs them.
          globalSetup: ['test/support/unit-setup.ts'],
          exclude: ['**/node_modules/**', 'dist/**', ...STACK],
        },
      },
      {
        extends: true,
        test: {
          name: 'stack',
          include: STACK,
          globalSetup: ['test/support/global-setup.ts'],
        },
      },
    ],
  },
});
