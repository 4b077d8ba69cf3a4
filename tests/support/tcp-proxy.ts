import type { Socket, TCPSocketListener } from "bun";

/**
 * A loopback TCP proxy in front of a server, which a test can cut (every connection dropped, new
 * ones refused) and restore on the same port: a database or provider outage for one pool only.
 */
export async function startTcpProxy(target: { hostname: string; port: number }) {
  type Client = Socket<{ upstream?: Socket<unknown>; pending: Uint8Array[] }>;
  const clients = new Set<Client>();
  let listener: TCPSocketListener<{ upstream?: Socket<unknown>; pending: Uint8Array[] }> | undefined;
  let port = 0;

  const listen = () => {
    listener = Bun.listen<{ upstream?: Socket<unknown>; pending: Uint8Array[] }>({
      hostname: "127.0.0.1",
      port,
      socket: {
        open(client) {
          client.data = { pending: [] };
          clients.add(client);
          void Bun.connect({
            ...target,
            socket: {
              open(upstream) {
                client.data.upstream = upstream;
                for (const chunk of client.data.pending.splice(0)) upstream.write(chunk);
              },
              data(_upstream, chunk) {
                client.write(chunk);
              },
              close() {
                client.end();
              },
              error() {
                client.end();
              },
            },
          }).catch(() => client.end());
        },
        data(client, chunk) {
          if (client.data.upstream) client.data.upstream.write(chunk);
          else client.data.pending.push(new Uint8Array(chunk));
        },
        close(client) {
          clients.delete(client);
          client.data.upstream?.end();
        },
        error(client) {
          clients.delete(client);
          client.data.upstream?.end();
        },
      },
    });
    port = listener.port;
  };
  listen();

  return {
    get port() {
      return port;
    },
    /** Drops every open connection and refuses new ones until `restore`. */
    cut() {
      listener?.stop(true);
      listener = undefined;
      for (const client of clients) {
        client.data.upstream?.terminate();
        client.terminate();
      }
      clients.clear();
    },
    restore() {
      if (!listener) listen();
    },
    stop() {
      this.cut();
    },
  };
}
