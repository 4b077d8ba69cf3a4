/**
 * The layer rules, checked by `npm run check:layers` (dependency-cruiser). Dependencies point
 * inwards: adapters → application → domain. A port module is `ports.ts` or `<name>-ports.ts`. A
 * feature's `errors.ts` is part of its contract like its ports: what an adapter behind a port may
 * throw, and what a caller may catch.
 * @type {import("dependency-cruiser").IConfiguration}
 */
const PORT_MODULES = [
  "^application/[^/]+/ports[.]ts$",
  "^application/[^/]+/[a-z-]+-ports[.]ts$",
  "^application/[^/]+/errors[.]ts$",
  // A feature's job definitions, which other features enqueue, are seen as its ports are.
  "^application/[^/]+/jobs[.]ts$",
];
const RUNTIME = ["core"];

module.exports = {
  forbidden: [
    {
      name: "domain-imports-only-domain",
      comment: "The domain is pure TypeScript: no other layer, no package, no runtime module.",
      severity: "error",
      from: { path: "^domain/" },
      to: { pathNot: "^domain/" },
    },
    {
      name: "application-imports-domain-its-feature-and-ports",
      comment:
        "A use case sees the domain, its own feature, application/shared and other features' port modules; never another feature's use cases, an adapter, a package or a runtime module.",
      severity: "error",
      from: { path: "^application/([^/]+)/" },
      to: { pathNot: ["^domain/", "^application/$1/", "^application/shared/", ...PORT_MODULES] },
    },
    {
      name: "runtime-free-core",
      comment: "domain/ and application/ stay runnable under Deno and Bun alike: no node:, bun: or built-in module.",
      severity: "error",
      from: { path: "^(domain|application)/" },
      to: { dependencyTypes: RUNTIME },
    },
    {
      name: "drivers-never-import-use-cases",
      comment:
        "Driven adapters (database, gateways, provider, fulfillment drivers, signals, security, crypto, config, jobs, licensing, logging, secrets, upstream) implement ports; only HTTP routes and the wiring know use cases.",
      severity: "error",
      from: { path: "^adapters/", pathNot: ["^adapters/(http|wiring|seed)/", "^adapters/(main|server)\\.ts$"] },
      to: { path: "^application/", pathNot: ["^application/shared/", ...PORT_MODULES] },
    },
    {
      name: "simulator-stands-alone",
      comment: "The provider simulator shares only the kit with the marketplace.",
      severity: "error",
      from: { path: "^provider-sim/" },
      to: { path: "^(domain|application|adapters)/" },
    },
    {
      name: "simulator-has-no-database",
      severity: "error",
      from: { path: "^(provider-sim|kit)/" },
      to: { path: "node_modules/(postgres|@electric-sql)/" },
    },
    {
      name: "kit-imports-no-app",
      comment: "The kit is what both apps share; it knows neither.",
      severity: "error",
      from: { path: "^kit/" },
      to: { path: "^(domain|application|adapters|provider-sim)/" },
    },
    {
      name: "console-speaks-only-the-public-api",
      comment:
        "The web console runs in a browser and knows the marketplace only through the generated API types: no server module, no runtime module, and no package but the UI library and the API client.",
      severity: "error",
      from: { path: "^web/" },
      to: {
        pathNot: ["^web/", "^openapi/generated/marketplace[.]ts$", "node_modules/(preact|openapi-fetch)/"],
      },
    },
    {
      name: "no-cycles",
      comment:
        "A type-only import is erased before anything runs, so it cannot make a load-order cycle: a feature's errors.ts names the feature's types in its constructors while the feature throws them.",
      severity: "error",
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ["type-only"] } },
    },
    {
      name: "no-orphans",
      comment:
        "A module nothing imports and that imports nothing is dead code, unless it is an entry point: a program's main, a script or benchmark run by name, a config file, a type declaration, a script served to browsers.",
      severity: "error",
      from: {
        orphan: true,
        pathNot: [
          "(^|/)[.][^/]+[.](?:js|cjs|mjs|ts|cts|mts|json)$",
          "[.]d[.]ts$",
          "(^|/)tsconfig[.]json$",
          "(^|/)(?:main|server)[.]ts$",
          "^(scripts|bench)/",
          "^web/.+[.]html$",
          // Scripts the server hands to browsers as files, never imported.
          "^adapters/http/pages/.+[.]js$",
        ],
      },
      to: {},
    },
    {
      name: "not-to-test",
      comment: "Code never imports a test or the tests' support code; only the tests and their runner do.",
      severity: "error",
      from: { pathNot: ["^tests/", "^scripts/test[.]ts$"] },
      to: { path: ["^tests/", "[.]test[.]tsx?$"] },
    },
    {
      name: "not-to-dev-dep",
      comment:
        "Shipped code imports only packages in `dependencies`: a production install (`npm ci --omit=dev`) has no devDependencies. Type-only imports are erased, so they may name one.",
      severity: "error",
      from: { path: "^(domain|application|adapters|provider-sim|kit|web)/" },
      to: {
        dependencyTypes: ["npm-dev"],
        dependencyTypesNot: ["type-only"],
        pathNot: ["node_modules/@types/"],
      },
    },
    {
      name: "no-unresolvable",
      comment: "An import that resolves to nothing is a typo or a deleted file.",
      severity: "error",
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: ["^node_modules", "/generated/"] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".json"],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
