/**
 * `bun scripts/map-trace.ts [dist/marketplace.map] < trace.txt`: a stack trace the bundled server
 * logged, with each position in the bundle replaced by the source file, line and column it came
 * from (Bun does not read the bundle's source map, see scripts/lib/build-server.ts).
 */
import { readFileSync } from "node:fs";
import { bundleNameOf, SERVER_BUNDLE, sourceMapOf } from "./lib/build-server.ts";
import { mapTrace } from "./lib/map-trace.ts";

const mapPath = process.argv[2] ?? sourceMapOf(SERVER_BUNDLE);
const trace = readFileSync(0, "utf8");
process.stdout.write(mapTrace(trace, readFileSync(mapPath, "utf8"), bundleNameOf(mapPath)));
