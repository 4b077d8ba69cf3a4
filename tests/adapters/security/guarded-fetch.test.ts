import { afterAll, describe, expect, test } from "bun:test";
import { createServer, type Server } from "node:https";
import type { TLSSocket } from "node:tls";
import { createGuardedFetch, OutboundUrlRefused, type Transport } from "../../../adapters/security/guarded-fetch.ts";
import type { HostResolver } from "../../../adapters/security/url-guard.ts";
import { hasOpenssl, type SelfSignedCert, selfSignedCert } from "../../support/tls-cert.ts";

const PUBLIC = "93.184.216.34";

interface Hit {
  readonly method: string;
  readonly path: string;
  readonly host: string | null;
  readonly body: string;
}

/** A loopback HTTP server that records every request reaching it. */
function listener() {
  const hits: Hit[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const url = new URL(request.url);
      hits.push({
        method: request.method,
        path: url.pathname,
        host: request.headers.get("host"),
        body: await request.text(),
      });
      return new Response("ok");
    },
  });
  return { hits, port: server.port ?? 0, stop: () => server.stop(true) };
}

/**
 * Stands in for the network: the public address the guard checked is routed to a local server,
 * and a test CA is trusted. Records what was dialled, to show the connection used the checked address.
 */
function network(ca: string[] = []) {
  const dialled: string[] = [];
  const transport: Transport = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : input);
    dialled.push(url.host);
    if (url.hostname === PUBLIC) url.hostname = "127.0.0.1";
    return fetch(url, { ...init, ...(ca.length > 0 ? { tls: { ...init?.tls, ca } } : {}) });
  };
  return { dialled, transport };
}

function counting(answers: (lookup: number) => readonly string[]) {
  const names: string[] = [];
  const resolve: HostResolver = async (host) => {
    names.push(host);
    return answers(names.length);
  };
  return { names, resolve };
}

const plain = listener();
afterAll(() => plain.stop());

describe("the connect-time guard", () => {
  test("a private address is refused before any connection, literal or resolved", async () => {
    const dns = counting(() => ["127.0.0.1"]);
    const guarded = createGuardedFetch({ allowPrivate: false, resolve: dns.resolve });
    for (const url of [
      `http://127.0.0.1:${plain.port}/`,
      `http://0x7f.1:${plain.port}/`,
      `http://x.example:${plain.port}/`,
    ]) {
      const error = await guarded(url).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OutboundUrlRefused);
      expect(error).toMatchObject({ transient: false, reason: "127.0.0.1 is not a public address (loopback)" });
    }
    expect(dns.names).toEqual(["x.example"]);
    expect(plain.hits).toEqual([]);
  });

  test("every address a name resolves to is checked, not just the first", async () => {
    const net = network();
    const guarded = createGuardedFetch({
      allowPrivate: false,
      resolve: async () => [PUBLIC, "169.254.169.254"],
      transport: net.transport,
    });
    await expect(guarded(`http://two.example:${plain.port}/`)).rejects.toBeInstanceOf(OutboundUrlRefused);
    expect(net.dialled).toEqual([]);
  });

  test("a name that does not resolve is a refusal that may pass later", async () => {
    const guarded = createGuardedFetch({ allowPrivate: false, resolve: async () => [] });
    await expect(guarded("https://gone.example/")).rejects.toMatchObject({
      reason: "the host does not resolve",
      transient: true,
    });
  });

  test("DNS rebinding: one lookup per call, and the connection goes to the address that was checked", async () => {
    // The first answer is public; every later one points at loopback, as a rebinding server would.
    const dns = counting((lookup) => (lookup === 1 ? [PUBLIC] : ["127.0.0.1"]));
    const net = network();
    const guarded = createGuardedFetch({ allowPrivate: false, resolve: dns.resolve, transport: net.transport });
    const first = await guarded(
      new Request(`http://rebind.example:${plain.port}/first?x=1`, { method: "POST", body: "payload" }),
    );
    expect(await first.text()).toBe("ok");
    expect(dns.names).toEqual(["rebind.example"]);
    expect(net.dialled).toEqual([`${PUBLIC}:${plain.port}`]);
    expect(plain.hits).toEqual([
      { method: "POST", path: "/first", host: `rebind.example:${plain.port}`, body: "payload" },
    ]);

    await expect(guarded(`http://rebind.example:${plain.port}/second`)).rejects.toBeInstanceOf(OutboundUrlRefused);
    expect(dns.names).toEqual(["rebind.example", "rebind.example"]);
    expect(net.dialled).toHaveLength(1);
    expect(plain.hits).toHaveLength(1);
    plain.hits.length = 0;
  });

  test("a call whose time ran out while the name was resolving never connects", async () => {
    let answer: (addresses: string[]) => void = () => {};
    const net = network();
    const guarded = createGuardedFetch({
      allowPrivate: false,
      resolve: () => new Promise((resolve) => (answer = resolve)),
      transport: net.transport,
    });
    const controller = new AbortController();
    const pending = guarded(new Request(`http://slow.example:${plain.port}/`, { signal: controller.signal }));
    controller.abort();
    answer([PUBLIC]);
    await expect(pending).rejects.toThrow();
    expect(net.dialled).toEqual([]);
  });

  test("with private addresses allowed the call goes by name, without resolving", async () => {
    const guarded = createGuardedFetch({
      allowPrivate: true,
      resolve: async () => {
        throw new Error("resolved");
      },
    });
    expect(await (await guarded(`http://127.0.0.1:${plain.port}/open`)).text()).toBe("ok");
    expect(plain.hits.map((hit) => hit.host)).toEqual([`127.0.0.1:${plain.port}`]);
    plain.hits.length = 0;
    await expect(guarded("gopher://127.0.0.1/")).rejects.toBeInstanceOf(OutboundUrlRefused);
  });
});

/** An https server on loopback with `cert`, recording the SNI name and Host header it was sent. */
async function tlsListener(cert: SelfSignedCert) {
  const seen: { sni: string | false | null | undefined; host: string | undefined; path: string | undefined }[] = [];
  const server: Server = createServer({ key: cert.key, cert: cert.cert }, (request, response) => {
    seen.push({ sni: (request.socket as TLSSocket).servername, host: request.headers.host, path: request.url });
    response.end("secure");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  return { seen, port: typeof address === "object" && address ? address.port : 0, stop: () => server.close() };
}

describe.skipIf(!hasOpenssl)("https to a checked address", () => {
  test("SNI, Host and certificate verification use the host name while the connection goes to the IP", async () => {
    const pinned = selfSignedCert("pinned.test");
    const impostorCert = selfSignedCert("impostor.test");
    const server = await tlsListener(pinned);
    const impostor = await tlsListener(impostorCert);
    try {
      const net = network([pinned.cert, impostorCert.cert]);
      const dns = counting(() => [PUBLIC]);
      const guarded = createGuardedFetch({ allowPrivate: false, resolve: dns.resolve, transport: net.transport });

      const response = await guarded(`https://pinned.test:${server.port}/secure`);
      expect(await response.text()).toBe("secure");
      expect(net.dialled).toEqual([`${PUBLIC}:${server.port}`]);
      expect(server.seen).toEqual([{ sni: "pinned.test", host: `pinned.test:${server.port}`, path: "/secure" }]);

      // A trusted certificate for another name is refused: the name checked is pinned.test, not the IP.
      const error = await guarded(`https://pinned.test:${impostor.port}/`).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: "ERR_TLS_CERT_ALTNAME_INVALID" });
      expect(impostor.seen).toEqual([]);
      expect(dns.names).toEqual(["pinned.test", "pinned.test"]);
    } finally {
      server.stop();
      impostor.stop();
    }
  });
});
