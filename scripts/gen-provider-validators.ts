/** Writes the provider's precompiled response checks (see scripts/lib/provider-validators.ts). */
import { projectPath } from "../adapters/asset-paths.ts";
import { PROVIDER_VALIDATORS, providerValidatorFiles } from "./lib/provider-validators.ts";

const { module, types } = await providerValidatorFiles();
await Bun.write(projectPath(PROVIDER_VALIDATORS.module), module);
await Bun.write(projectPath(PROVIDER_VALIDATORS.types), types);
console.log(`wrote ${PROVIDER_VALIDATORS.module} and ${PROVIDER_VALIDATORS.types}`);
