import { expect, test } from "bun:test";
import { projectPath } from "../../adapters/asset-paths.ts";
import { servedMarketplaceDocument } from "../../scripts/lib/openapi-documents.ts";

test("openapi/marketplace.json matches the routes (run `npm run openapi:export` after changing them)", async () => {
  const committed = await Bun.file(projectPath("openapi/marketplace.json")).json();
  expect(committed).toEqual(await servedMarketplaceDocument());
});
