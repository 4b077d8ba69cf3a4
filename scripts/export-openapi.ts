/** `npm run openapi:export`: writes the marketplace's OpenAPI document, generated from the routes. */
import { projectPath } from "../adapters/asset-paths.ts";
import { servedMarketplaceDocument } from "./lib/openapi-documents.ts";

const document = (await servedMarketplaceDocument()) as { paths?: object };
const target = projectPath("openapi/marketplace.json");
await Bun.write(target, `${JSON.stringify(document, null, 2)}\n`);
console.log(`wrote ${target} (${Object.keys(document.paths ?? {}).length} paths); run \`npm run openapi:gen\` next`);
