/** `npm run check:openapi`: fails when regenerating the provider types would change the committed file. */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

const committed = "openapi/generated/provider.ts";
const dir = await mkdtemp(join(tmpdir(), "openapi-check-"));
try {
  const fresh = join(dir, "provider.ts");
  const proc = Bun.spawn(["npx", "openapi-typescript", "openapi/provider.yaml", "-o", fresh], {
    stdout: "ignore",
    stderr: "pipe",
  });
  if ((await proc.exited) !== 0) throw new Error(await new Response(proc.stderr).text());
  if ((await Bun.file(fresh).text()) !== (await Bun.file(committed).text())) {
    console.error(`${committed} is stale: run \`npm run openapi:gen\` and commit the result`);
    process.exit(1);
  }
  console.log(`${committed} matches openapi/provider.yaml`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
