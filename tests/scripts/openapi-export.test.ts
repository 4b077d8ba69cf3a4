import { expect, test } from "bun:test";
import { createOfflineApp } from "../../scripts/lib/offline-app.ts";

test("openapi/marketplace.json matches the routes (run `npm run openapi:export` after changing them)", async () => {
  const response = await createOfflineApp("openapi-check").handle(new Request("http://localhost/openapi/json"));
  const committed = await Bun.file(new URL("../../openapi/marketplace.json", import.meta.url)).json();
  expect(committed).toEqual(await response.json());
});
