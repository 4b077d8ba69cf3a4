import { afterEach, describe, expect, test } from "bun:test";
import { Webhook } from "standardwebhooks";
import { createHttpWebhookSender } from "../../../adapters/outgoing-webhooks/http-webhook-sender.ts";
import { newWebhookSecret } from "../../../adapters/outgoing-webhooks/standard-webhooks.ts";
import { connectToAnyAddress, createGuardedFetch } from "../../../adapters/security/guarded-fetch.ts";
import type { WebhookMessage } from "../../../application/outgoing-webhooks/ports.ts";

type Handler = (request: Request) => Response | Promise<Response>;

const servers: ReturnType<typeof Bun.serve>[] = [];

/** A receiver on loopback recording what reached it. */
function receiver(handler: Handler) {
  const received: { headers: Headers; body: string }[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 30,
    async fetch(request) {
      received.push({ headers: request.headers, body: await request.text() });
      return handler(request);
    },
  });
  servers.push(server);
  return { received, url: `http://127.0.0.1:${server.port}/hooks` };
}

afterEach(() => {
  for (const server of servers.splice(0)) server.stop(true);
});

const secret = newWebhookSecret();
const message = (url: string): WebhookMessage => ({
  url,
  id: "msg_test",
  timestamp: new Date(),
  body: JSON.stringify({ type: "order.paid", timestamp: new Date().toISOString(), data: { order_id: "o_1" } }),
  secrets: [secret],
});
const sender = createHttpWebhookSender({ outbound: connectToAnyAddress, timeoutSeconds: 1 });

describe("the webhook sender", () => {
  test("POSTs the body as JSON with the Standard Webhooks headers", async () => {
    const target = receiver(() => new Response(null, { status: 204 }));
    const sent = message(target.url);
    expect(await sender.send(sent)).toEqual({ kind: "answered", status: 204, excerpt: "", retry_after_ms: null });
    const [request] = target.received;
    expect(request?.headers.get("content-type")).toBe("application/json");
    expect(request?.headers.get("webhook-id")).toBe("msg_test");
    expect(request?.body).toBe(sent.body);
    const headers = Object.fromEntries(request?.headers ?? []);
    expect(new Webhook(secret).verify(request?.body ?? "", headers)).toEqual(JSON.parse(sent.body));
  });

  test("keeps only a short printable excerpt of a huge garbage body", async () => {
    const garbage = crypto.getRandomValues(new Uint8Array(65_536));
    const huge = new Uint8Array(8 * 1024 * 1024).map((_, i) => garbage[i % garbage.length] ?? 0);
    const target = receiver(() => new Response(huge, { status: 500 }));
    const answer = await sender.send(message(target.url));
    expect(answer).toMatchObject({ kind: "answered", status: 500 });
    if (answer.kind !== "answered") throw new Error("no answer");
    expect(answer.excerpt.length).toBeLessThanOrEqual(200);
    expect(answer.excerpt).toMatch(/^[\x20-\x7e]*$/);
  });

  test("reads the start of a body that never ends, and stops", async () => {
    const target = receiver(
      () =>
        new Response(
          new ReadableStream({
            async pull(controller) {
              controller.enqueue(new TextEncoder().encode("ok ".repeat(100)));
              await Bun.sleep(5);
            },
          }),
          { status: 200 },
        ),
    );
    const started = performance.now();
    expect(await sender.send(message(target.url))).toMatchObject({ kind: "answered", status: 200 });
    expect(performance.now() - started).toBeLessThan(900);
  });

  test("does not follow a redirect", async () => {
    const elsewhere = receiver(() => new Response("moved here"));
    const target = receiver(() => Response.redirect(elsewhere.url, 307));
    expect(await sender.send(message(target.url))).toMatchObject({ kind: "answered", status: 307 });
    expect(elsewhere.received).toHaveLength(0);
  });

  test("gives up on a receiver that does not answer within the time-out", async () => {
    const target = receiver(() => new Promise<Response>(() => {}));
    const started = performance.now();
    expect(await sender.send(message(target.url))).toEqual({
      kind: "failed",
      reason: "no answer within 1 s",
      permanent: false,
    });
    expect(performance.now() - started).toBeLessThan(2500);
  });

  test("reports a refused connection as worth retrying", async () => {
    const closed = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response() });
    const url = `http://127.0.0.1:${closed.port}/hooks`;
    closed.stop(true);
    const answer = await sender.send(message(url));
    expect(answer).toMatchObject({ kind: "failed", permanent: false });
    if (answer.kind !== "failed") throw new Error("answered");
    expect(answer.reason).toMatch(/connection refused|ConnectionRefused|ECONNREFUSED/i);
  });

  test("passes on a Retry-After", async () => {
    const target = receiver(() => new Response("slow down", { status: 429, headers: { "retry-after": "7" } }));
    expect(await sender.send(message(target.url))).toEqual({
      kind: "answered",
      status: 429,
      excerpt: "slow down",
      retry_after_ms: 7000,
    });
  });

  test("never connects to a private address, nor to a public name that resolves to one", async () => {
    const target = receiver(() => new Response());
    const guarded = createHttpWebhookSender({
      outbound: createGuardedFetch({
        allowPrivate: false,
        resolve: async (host) => (host === "hooks.example.com" ? ["127.0.0.1"] : ["93.184.215.14"]),
      }),
      timeoutSeconds: 1,
    });
    const port = new URL(target.url).port;
    for (const url of [target.url, `http://hooks.example.com:${port}/hooks`]) {
      const answer = await guarded.send(message(url));
      expect(answer).toMatchObject({ kind: "failed", permanent: true });
      if (answer.kind !== "failed") throw new Error("answered");
      expect(answer.reason).toContain("127.0.0.1 is not a public address");
    }
    expect(target.received).toHaveLength(0);
  });
});
