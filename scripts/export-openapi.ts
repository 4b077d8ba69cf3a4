/** `npm run openapi:export`: writes the marketplace's OpenAPI document, generated from the routes. */
import { createOfflineApp } from "./lib/offline-app.ts";

const response = await createOfflineApp("openapi-export").handle(new Request("http://localhost/openapi/json"));
if (response.status !== 200) throw new Error(`OpenAPI document not served: ${response.status}`);
const document = await response.json();
const target = new URL("../openapi/marketplace.json", import.meta.url);
await Bun.write(target, `${JSON.stringify(document, null, 2)}\n`);
console.log(`wrote ${target.pathname} (${Object.keys(document.paths ?? {}).length} paths)`);
