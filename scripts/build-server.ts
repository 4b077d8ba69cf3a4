/**
 * `npm run build`: the marketplace bundled into dist/marketplace.js, which `bun dist/marketplace.js`
 * runs (with the repository and its node_modules around it, as `npm start` does).
 */
import { buildServer } from "./lib/build-server.ts";

const started = performance.now();
try {
  const outfile = await buildServer();
  console.log(`built ${outfile} in ${Math.round(performance.now() - started)} ms`);
} catch (error) {
  console.error(`build: ${(error as Error).message}`);
  process.exit(1);
}
