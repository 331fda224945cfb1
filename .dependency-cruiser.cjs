// The layering (docs/architecture.md, "Round 3 shape"), checked by `make lint`: the entries (api/, worker/, cli/)
// → core/ → db/. A type-only import carries no code at run time, so the rules about logic let it through. A test
// file belongs to the suite wherever it sits (beside its module), so the layers' rules are about the rest.

const TESTS = '[.]test[.]tsx?$';
const CODE = { dependencyTypesNot: ['type-only'] };
const OUTER = '^(api|cli|web|worker|dev|bench|test)/';
const OUTSIDE_WEB = '^(api|cli|core|db|worker|dev|bench|test)/';

/** Modules of core/ the page's bundle may hold: no Node built-ins, no secrets, no I/O. */
const BROWSER_SAFE = [
  '^core/contract/',
  '^core/plans[.]ts$',
  '^core/delivery/links[.]ts$',
  '^core/events/(calendar-link|canonical-url|event-key|event-place|ics|series-card|strict-values|verification-text)[.]ts$',
  '^core/time/(calendar-day|date-words|event-date-format|format-cache|iso-time|time-zone|vtimezone|whole-days|zoned-time)[.]ts$',
];

/** An error for an import from a module under `from` (not a test file) to one matching `to`. */
const forbid = (name, comment, from, to) => ({ name, severity: 'error', comment, from: { path: from, pathNot: TESTS }, to });

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    forbid(
      'db-imports-no-core-logic',
      'db/ holds queries; the rules they apply come in as arguments, or live in core/ and call db/.',
      '^db/',
      { path: '^core/', pathNot: '^core/contract/', ...CODE },
    ),
    forbid('db-imports-no-outer-layer', 'db/ is the bottom layer: it is called, and calls nothing above it.', '^db/', { path: OUTER }),
    forbid(
      'core-imports-no-outer-layer',
      'core/ is called by the entries; it never reaches back into them, the page, or the tools.',
      '^core/',
      { path: OUTER },
    ),
    forbid(
      'gemini-and-website-import-no-use-case',
      'core/gemini and core/website read the outside world for a use case; they know no search or events.',
      '^core/(gemini|website)/',
      { path: '^core/(search|events)/', ...CODE },
    ),
    forbid(
      'time-imports-no-other-core',
      'core/time (zones, days, ISO times, date formats) sits below core/website and core/events, which both use it: it imports no other part of core.',
      '^core/time/',
      { path: '^core/', pathNot: '^core/time/', ...CODE },
    ),
    forbid(
      'events-import-no-search',
      'core/events turns facts into events; the charged search (core/search) uses it, not the other way.',
      '^core/events/',
      { path: '^core/search/', ...CODE },
    ),
    forbid(
      'web-imports-only-browser-safe',
      'web/ is bundled for the browser: from outside web/ it takes only the browser-safe list in .dependency-cruiser.cjs.',
      '^web/',
      { path: OUTSIDE_WEB, pathNot: BROWSER_SAFE },
    ),
    forbid('browser-safe-stays-browser-safe', 'A browser-safe module imports only other browser-safe modules.', BROWSER_SAFE, {
      path: OUTSIDE_WEB,
      pathNot: BROWSER_SAFE,
    }),
    forbid(
      'browser-safe-uses-no-node-builtin',
      'A browser-safe module runs in the page, where Node built-ins do not exist.',
      BROWSER_SAFE,
      {
        dependencyTypes: ['core'],
      },
    ),
    forbid('worker-imports-no-other-entry', 'The entries are separate processes that share core/ and db/.', '^worker/', {
      path: '^(api|cli)/',
    }),
    forbid('api-imports-no-other-entry', 'The entries are separate processes that share core/ and db/.', '^api/', {
      path: '^(worker|cli)/',
    }),
    forbid(
      'tools-import-no-tests',
      'dev/ and bench/ run without the suite; what they share with it lives in dev/harness/.',
      '^(dev|bench)/',
      {
        path: '^test/',
      },
    ),
    forbid(
      'bench-imports-no-worker',
      'A benchmark measures core through its use cases (core/timers/run.ts, core/timers/reconcile.ts), not the worker entry.',
      '^bench/',
      { path: '^worker/' },
    ),
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A cycle of imports that carry code; cycles made only of type-only imports are harmless.',
      from: {},
      to: { circular: true, viaOnly: CODE },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // The layering test's fixture breaks the rules on purpose; it is cruised on its own (test/layering.test.ts).
    exclude: { path: ['^dist/', '^node_modules/', '^test/fixtures/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
