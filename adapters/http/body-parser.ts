import { HttpProblem } from "./problem.ts";

/** Reads the body as text, refusing it once it grows past `limit` bytes (chunked bodies too). */
export async function readLimitedText(request: Request, limit: number): Promise<string> {
  const header = request.headers.get("content-length");
  const declared = Number(header ?? "0");
  if (declared > limit) throw tooLarge(limit);
  if (!request.body) return "";
  // A declared length is enforced by the server while reading: one native read is enough.
  if (header !== null && Number.isInteger(declared)) return decodeUtf8(new Uint8Array(await request.arrayBuffer()));
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return decodeUtf8(bytes);
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

function decodeUtf8(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new HttpProblem(400, "MALFORMED_BODY", "The request body is not valid UTF-8.");
  }
}

function tooLarge(limit: number): HttpProblem {
  return new HttpProblem(413, "PAYLOAD_TOO_LARGE", `The request body exceeds the limit of ${limit} bytes.`);
}

export function parseJsonBody(text: string): unknown {
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpProblem(400, "MALFORMED_JSON", "The request body is not valid JSON.");
  }
}

export function isJsonContentType(contentType: string): boolean {
  const type = contentType.split(";")[0]?.trim().toLowerCase() ?? "";
  return type === "application/json" || (type.startsWith("application/") && type.endsWith("+json"));
}
