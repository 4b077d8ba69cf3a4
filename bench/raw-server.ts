/**
 * The physical floor for the catalog ratios: Bun.serve answering fixed bytes, nothing else.
 *
 *   bun bench/raw-server.ts <body file> [port] [headers file] [--contract]
 *     the body with the headers in the JSON object of `headers file` (by default only the JSON
 *     content type): give it the headers the marketplace sends, so both put the same bytes on the wire;
 *     with `--contract`, each answer also does what the catalog's contract asks of every answer and
 *     nothing more: it reads the request's target (a query string would be another answer) and its
 *     `X-Request-Id` and `If-None-Match` (a 304 when the tag matches), gives the answer a fresh
 *     request id, and times it (the access line's duration), but writes no access line;
 *   bun bench/raw-server.ts --empty [port]
 *     204 without a body: what the load generator can drive at most on this machine.
 *
 * Prints the port once listening.
 */
const args = process.argv.slice(2);
const contract = args.includes("--contract");
const [first, portArg, headersFile] = args.filter((arg) => arg !== "--contract");
const empty = first === "--empty";
// As the marketplace answers from its cache: a prepared Response over an immutable Blob, cloned per
// request (the clone shares the body and copies the headers natively: the cheapest answer Bun gives).
const headers: Record<string, string> = headersFile
  ? await Bun.file(headersFile).json()
  : { "content-type": "application/json;charset=utf-8" };
const prepared = empty ? null : new Response(new Blob([await Bun.file(first ?? "").arrayBuffer()]), { headers });
const etag = headers.etag ?? "";
const cacheControl = headers["cache-control"] ?? "no-cache";
/** A caller's request id is kept when it has this shape. */
const SANE_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const notFound = () => new Response(null, { status: 404 });

/** The contract's per-request work, with ids shaped as the marketplace's: a fixed prefix and a counter. */
function contractAnswer(answer: Response) {
  const prefix = crypto.randomUUID().slice(0, 24);
  let next = 100_000_000_000;
  /** What the timing yields (the marketplace writes it into the access line); kept, so the timing stays. */
  let slowest = 0;
  return (request: Request) => {
    const startedAt = performance.now();
    if (request.url.includes("?")) return notFound();
    const incoming = request.headers.get("x-request-id");
    const id = incoming !== null && SANE_ID.test(incoming) ? incoming : prefix + next++;
    let response: Response;
    if (request.headers.get("if-none-match") === etag) {
      response = new Response(null, {
        status: 304,
        headers: { etag, "cache-control": cacheControl, "x-request-id": id },
      });
    } else {
      response = answer.clone();
      response.headers.set("x-request-id", id);
    }
    slowest = Math.max(slowest, performance.now() - startedAt);
    return response;
  };
}

const server = Bun.serve({
  hostname: "127.0.0.1",
  port: Number(portArg ?? 0),
  fetch: prepared
    ? contract
      ? contractAnswer(prepared)
      : () => prepared.clone()
    : () => new Response(null, { status: 204 }),
});
console.log(server.port);
