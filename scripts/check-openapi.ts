/**
 * `npm run check:openapi`: both OpenAPI documents pass an independent validator, the committed
 * marketplace document is the one its routes produce, and the types generated from each
 * document, and the provider's precompiled response checks, are fresh.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { projectPath } from "../adapters/asset-paths.ts";
import { OPENAPI_DOCUMENTS, servedMarketplaceDocument, validationProblems } from "./lib/openapi-documents.ts";
import { PROVIDER_VALIDATORS, providerValidatorFiles } from "./lib/provider-validators.ts";

const failures: string[] = [];

for (const { source } of OPENAPI_DOCUMENTS) {
  const problems = await validationProblems(source);
  if (problems.length > 0) failures.push(`${source} is not valid OpenAPI 3.1:\n  ${problems.join("\n  ")}`);
  else console.log(`${source} is valid OpenAPI 3.1`);
}

const committed = await Bun.file(projectPath("openapi/marketplace.json")).json();
if (!Bun.deepEquals(committed, await servedMarketplaceDocument())) {
  failures.push("openapi/marketplace.json differs from what the routes serve: run `npm run openapi:export`");
} else console.log("openapi/marketplace.json matches the routes");

const dir = await mkdtemp(join(tmpdir(), "openapi-check-"));
try {
  for (const { source, types } of OPENAPI_DOCUMENTS) {
    const fresh = join(dir, basename(types));
    const proc = Bun.spawn(["npx", "openapi-typescript", projectPath(source), "-o", fresh], {
      stdout: "ignore",
      stderr: "pipe",
    });
    if ((await proc.exited) !== 0) throw new Error(await new Response(proc.stderr).text());
    if ((await Bun.file(fresh).text()) !== (await Bun.file(projectPath(types)).text())) {
      failures.push(`${types} is stale: run \`npm run openapi:gen\` and commit the result`);
    } else console.log(`${types} matches ${source}`);
  }
  const validators = await providerValidatorFiles();
  for (const kind of ["module", "types"] as const) {
    const path = PROVIDER_VALIDATORS[kind];
    if (validators[kind] !== (await Bun.file(projectPath(path)).text())) {
      failures.push(`${path} is stale: run \`npm run openapi:gen\` and commit the result`);
    } else console.log(`${path} matches ${PROVIDER_VALIDATORS.source}`);
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}

if (failures.length > 0) {
  for (const failure of failures) console.error(failure);
  process.exit(1);
}
