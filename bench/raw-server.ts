/**
 * The physical floor for the catalog ratios: Bun.serve answering fixed bytes, nothing else.
 *
 *   bun bench/raw-server.ts <body file> [port] [headers file]
 *     the body with the headers in the JSON object of `headers file` (by default only the JSON
 *     content type): give it the headers the marketplace sends, so both put the same bytes on the wire;
 *   bun bench/raw-server.ts --empty [port]
 *     204 without a body: what the load generator can drive at most on this machine.
 *
 * Prints the port once listening.
 */
const [first, portArg, headersFile] = process.argv.slice(2);
const empty = first === "--empty";
// As the marketplace answers from its cache: a prepared Response over an immutable Blob, cloned per
// request (the clone shares the body and copies the headers natively: the cheapest answer Bun gives).
const headers: Record<string, string> = headersFile
  ? await Bun.file(headersFile).json()
  : { "content-type": "application/json;charset=utf-8" };
const prepared = empty ? null : new Response(new Blob([await Bun.file(first ?? "").arrayBuffer()]), { headers });
const server = Bun.serve({
  hostname: "127.0.0.1",
  port: Number(portArg ?? 0),
  fetch: prepared ? () => prepared.clone() : () => new Response(null, { status: 204 }),
});
console.log(server.port);
