import { mkdir, rename, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The largest generated archive: enough for a memory figure, small enough for a test machine's disk. */
export const MAX_GENERATED_BYTES = 2 ** 30;

const CHUNK_BYTES = 1 << 20;

/**
 * The bytes at `start..start+length` of every generated archive: each byte depends on its offset
 * (the top byte of offset x Knuth's multiplier), so a slice taken at the wrong place never matches.
 */
export function generatedBytes(start: number, length: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; i += 1) bytes[i] = Math.imul(start + i, 2654435761) >>> 24;
  return bytes;
}

const written = new Map<number, Promise<string>>();

async function write(size: number, path: string): Promise<string> {
  const existing = await stat(path).catch(() => undefined);
  if (existing?.size === size) return path;
  await mkdir(join(tmpdir(), "provider-sim-artifacts"), { recursive: true });
  const partial = `${path}.${process.pid}.${crypto.randomUUID()}.part`;
  const writer = Bun.file(partial).writer({ highWaterMark: CHUNK_BYTES });
  for (let offset = 0; offset < size; offset += CHUNK_BYTES) {
    writer.write(generatedBytes(offset, Math.min(CHUNK_BYTES, size - offset)));
    await writer.flush();
  }
  await writer.end();
  await rename(partial, path);
  return path;
}

/**
 * A generated archive of `size` bytes as a file on disk, written once per size (by 1 MiB chunks,
 * never held whole) and served from there, so the simulator's memory does not grow with it.
 */
export function generatedArtifact(size: number): Promise<string> {
  const path = join(tmpdir(), "provider-sim-artifacts", `generated-${size}.bin`);
  let file = written.get(size);
  if (!file) {
    file = write(size, path);
    written.set(size, file);
    file.catch(() => written.delete(size));
  }
  return file;
}
