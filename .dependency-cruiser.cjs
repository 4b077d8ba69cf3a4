/**
 * The layer rules, checked by `npm run check:layers` (dependency-cruiser). Dependencies point
 * inwards: adapters → application → domain. A port module is `ports.ts` or `<name>-ports.ts`.
 * @type {import("dependency-cruiser").IConfiguration}
 */
const PORT_MODULES = [
  "^application/[^/]+/ports[.]ts$",
  "^application/[^/]+/[a-z-]+-ports[.]ts$",
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
      severity: "error",
      from: {},
      to: { circular: true },
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
