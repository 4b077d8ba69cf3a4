/** The physical floor for catalog_ratio: Bun.serve answering fixed bytes, nothing else. */
const body = await Bun.file(process.argv[2] ?? "").arrayBuffer();
const server = Bun.serve({
  hostname: "127.0.0.1",
  port: Number(process.argv[3] ?? 0),
  fetch: () => new Response(body, { headers: { "content-type": "application/json;charset=utf-8" } }),
});
console.log(server.port);
