/**
 * `npm run test:faults`: the long-running fault tests (tests/faults/*.fault.ts), which start their
 * own PostgreSQL clusters, simulators and marketplace processes. Outside `npm test`; CI runs both.
 */
import { readdirSync } from "node:fs";

const files = readdirSync("tests/faults")
  .filter((name) => name.endsWith(".fault.ts"))
  .sort()
  .map((name) => `./tests/faults/${name}`);
const proc = Bun.spawn(["bun", "test", "--timeout", "300000", ...files, ...process.argv.slice(2)], {
  stdio: ["inherit", "inherit", "inherit"],
  env: { ...process.env, NODE_ENV: "test" },
});
process.exit(await proc.exited);
