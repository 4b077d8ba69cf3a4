import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";

/**
 * Outside production an unset key (JWT_SECRET, SECRETS_KEY) is generated once and kept under the
 * data directory, so tokens and stored secrets survive a restart without anyone inventing a key.
 */
export async function resolveGeneratedSecret(
  configured: string | undefined,
  dataDir: string,
  name: string,
): Promise<string> {
  if (configured) return configured;
  const file = join(dataDir, name);
  try {
    const stored = (await readFile(file, "utf8")).trim();
    if (stored.length >= 32) return stored;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  await mkdir(dataDir, { recursive: true });
  const secret = Buffer.from(crypto.getRandomValues(new Uint8Array(48))).toString("base64url");
  await writeFile(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}
