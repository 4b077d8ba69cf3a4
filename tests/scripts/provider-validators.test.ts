import { expect, test } from "bun:test";
import { projectPath } from "../../adapters/asset-paths.ts";
import { PROVIDER_VALIDATORS, providerValidatorFiles } from "../../scripts/lib/provider-validators.ts";

test("the committed provider checks are what openapi/provider.yaml compiles to (run `npm run openapi:gen`)", async () => {
  const fresh = await providerValidatorFiles();
  expect(await Bun.file(projectPath(PROVIDER_VALIDATORS.module)).text()).toBe(fresh.module);
  expect(await Bun.file(projectPath(PROVIDER_VALIDATORS.types)).text()).toBe(fresh.types);
});
