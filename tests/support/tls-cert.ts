import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface SelfSignedCert {
  readonly key: string;
  readonly cert: string;
}

/** Whether the `openssl` command is there to make certificates with (node:crypto cannot). */
export const hasOpenssl = Bun.which("openssl") !== null;

/** A throwaway self-signed certificate for `name`, valid for a day: its own CA in a test. */
export function selfSignedCert(name: string): SelfSignedCert {
  const dir = mkdtempSync(join(tmpdir(), "test-cert-"));
  try {
    const made = Bun.spawnSync([
      "openssl",
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-days",
      "1",
      "-subj",
      `/CN=${name}`,
      "-addext",
      `subjectAltName=DNS:${name}`,
      "-keyout",
      join(dir, "key.pem"),
      "-out",
      join(dir, "cert.pem"),
    ]);
    if (made.exitCode !== 0) throw new Error(`openssl failed: ${made.stderr.toString()}`);
    return { key: readFileSync(join(dir, "key.pem"), "utf8"), cert: readFileSync(join(dir, "cert.pem"), "utf8") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
