// The dependency rules of src/, checked by `npm test` (alone: `npm run deps`).
//
// Each folder of src/ is one stage, and the stages form layers: a folder imports only
// folders of lower layers (and itself), never one of its own layer or above, so data and
// helpers flow one way and the folders have no cycles between them. A helper that two
// stages share lives in a layer below both (util/, labels/). src/index.ts, the public
// surface, sits above everything.

/** Lowest first. */
const LAYERS = [
  ['errors', 'thread', 'util'],
  ['schedule', 'testweb', 'text', 'url'],
  ['fetch', 'relevance', 'search'],
  ['discover', 'frontier', 'labels', 'parse'],
  ['extract', 'page', 'store'],
  ['dedup', 'inspect', 'learn', 'ranking'],
  ['analyze', 'sitemodel'],
  ['crawl'],
  ['export', 'watch'],
  ['report'],
  ['evaluate', 'serve'],
  ['cli'],
];

const ALL = LAYERS.flat();
const any = (folders) => `^src/(${folders.join('|')})/`;

/** Tests, and what only tests use: kept out of dist/ by tsconfig.build.json's `exclude`. */
const TESTS = '\\.test\\.ts$';
const KITS = [
  '^src/.+/testing\\.ts$',
  '^src/store/conformance[^/]*\\.ts$',
  '^src/store/crash-writer\\.ts$',
  '/__fixtures__/',
];

const layerRules = LAYERS.flatMap((layer, i) => {
  const below = LAYERS.slice(0, i).flat();
  return layer.map((folder) => ({
    name: `layer-${folder}`,
    comment: `src/${folder}/ may import only ${below.length > 0 ? below.join(', ') : 'itself'} (lower layers)`,
    severity: 'error',
    from: { path: `^src/${folder}/` },
    to: { path: '^src/', pathNot: any([folder, ...below]) },
  }));
});

module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'layer-unknown-folder',
      comment: 'every folder of src/ has its place in LAYERS (.dependency-cruiser.cjs)',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^src/[^/]+/', pathNot: any(ALL) },
    },
    {
      name: 'no-circular',
      comment: 'no import cycles between modules (one closed by `import type` alone is erased)',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'src-not-to-test-or-bench',
      comment: 'src/ does not import test/ or bench/',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(test|bench)/' },
    },
    {
      name: 'not-to-test-kits',
      comment:
        'only tests and other kits import tests, testing.ts kits, the store conformance suite and fixtures (none of them is published)',
      severity: 'error',
      from: { path: '^src/', pathNot: [TESTS, ...KITS] },
      to: { path: [TESTS, ...KITS] },
    },
    {
      name: 'testweb-for-cli-and-tests',
      comment:
        'the test web is a fixture: the command line (testweb, demo), the public surface and tests use it, the stages do not',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/(cli|testweb)/', '^src/index\\.ts$', TESTS, ...KITS] },
      to: { path: '^src/testweb/' },
    },
    {
      name: 'not-to-dev-dep',
      comment: 'published code uses only dependencies, not devDependencies',
      severity: 'error',
      from: { path: '^src/', pathNot: [TESTS, ...KITS] },
      to: { dependencyTypes: ['npm-dev'] },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'every import resolves',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
  },
};
