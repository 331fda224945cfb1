// The layering (docs/architecture.md, "Round 3 shape"), checked by `make lint`: the entries (api/, worker/, cli/)
// → core/ → db/. A type-only import carries no code at run time, so the rules about logic let it through. A test
// file belongs to the suite wherever it sits (beside its module), so the layers' rules are about the rest.

const TESTS = '[.]test[.]tsx?$';

/** Modules of core/ the page's bundle may hold: no Node built-ins, no secrets, no I/O. */
const BROWSER_SAFE = [
  '^core/contract/',
  '^core/plans[.]ts$',
  '^core/delivery/links[.]ts$',
  '^core/events/(calendar-link|canonical-url|event-date-format|event-key|ics|zoned-time)[.]ts$',
];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'db-imports-no-core-logic',
      severity: 'error',
      comment: 'db/ holds queries; the rules they apply come in as arguments, or live in core/ and call db/.',
      from: { path: '^db/', pathNot: TESTS },
      to: { path: '^core/', pathNot: '^core/contract/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'db-imports-no-outer-layer',
      severity: 'error',
      comment: 'db/ is the bottom layer: it is called, and calls nothing above it.',
      from: { path: '^db/', pathNot: TESTS },
      to: { path: '^(api|cli|web|worker|dev|bench|test)/' },
    },
    {
      name: 'core-imports-no-outer-layer',
      severity: 'error',
      comment: 'core/ is called by api/ and worker/; it never reaches back into them, the page, or the tools.',
      from: { path: '^core/', pathNot: TESTS },
      to: { path: '^(api|cli|web|worker|dev|bench|test)/' },
    },
    {
      name: 'gemini-and-website-import-no-use-case',
      severity: 'error',
      comment: 'core/gemini and core/website are the outside world read for a use case; they know no search or events.',
      from: { path: '^core/(gemini|website)/', pathNot: TESTS },
      to: { path: '^core/(search|events)/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'events-import-no-search',
      severity: 'error',
      comment: 'core/events turns facts into events; the charged search (core/search) uses it, not the other way.',
      from: { path: '^core/events/', pathNot: TESTS },
      to: { path: '^core/search/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'web-imports-only-browser-safe',
      severity: 'error',
      comment:
        'web/ is bundled for the browser: from outside web/ it takes only the contract and the browser-safe list in .dependency-cruiser.cjs.',
      from: { path: '^web/', pathNot: TESTS },
      to: { path: '^(api|cli|core|db|worker|dev|bench|test)/', pathNot: BROWSER_SAFE },
    },
    {
      name: 'browser-safe-stays-browser-safe',
      severity: 'error',
      comment: 'A browser-safe module imports only other browser-safe modules.',
      from: { path: BROWSER_SAFE },
      to: { path: '^(api|cli|core|db|worker|dev|bench|test)/', pathNot: BROWSER_SAFE },
    },
    {
      name: 'browser-safe-uses-no-node-builtin',
      severity: 'error',
      comment: 'A browser-safe module runs in the page, where Node built-ins do not exist.',
      from: { path: BROWSER_SAFE },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'worker-imports-no-other-entry',
      severity: 'error',
      comment: 'The worker and the api are separate processes that share core/ and db/, not each other.',
      from: { path: '^worker/', pathNot: TESTS },
      to: { path: '^(api|cli)/' },
    },
    {
      name: 'api-imports-no-other-entry',
      severity: 'error',
      comment: 'The worker and the api are separate processes that share core/ and db/, not each other.',
      from: { path: '^api/', pathNot: TESTS },
      to: { path: '^(worker|cli)/' },
    },
    {
      name: 'tools-import-no-tests',
      severity: 'error',
      comment: 'dev/ and bench/ run without the test suite; what they share with it lives in dev/harness/.',
      from: { path: '^(dev|bench)/', pathNot: TESTS },
      to: { path: '^test/' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A cycle of imports that carry code; cycles made only of type-only imports are harmless.',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
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
