/**
 * A loopback HTTP listener that records the path of every request reaching it: a request that
 * must never be made (to a refused address, say) shows up in `hits`. Stop it with `server.stop`.
 */
export function countingListener(respond: (request: Request) => Response | Promise<Response>) {
  const hits: string[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(request) {
      hits.push(new URL(request.url).pathname);
      return respond(request);
    },
  });
  const port = server.port ?? 0;
  return { hits, server, port, url: `http://127.0.0.1:${port}` };
}
