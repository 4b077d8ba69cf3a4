import { describe, expect, test } from "bun:test";
import { connect } from "node:net";
import nodemailer from "nodemailer";
import { freePort } from "../../scripts/lib/postgres-cluster.ts";
import { runToExit } from "../support/process.ts";
import { SIM_HMAC_SECRET, SIM_TOKEN, startProviderSim } from "../support/provider-sim.ts";
import { anOnboardRequest, type Tenant } from "./harness.ts";
import { aMessage, rawSmtp, sendCode } from "./mail/harness.ts";

const PUBLIC_URL = "http://pos.test";
const IDENTIFIERS = [
  "external_reference_id",
  "external_tenant_id",
  "external_customer_id",
  "external_user_id",
  "external_subscription_id",
  "workspace_url",
] as const;

function onboard(baseUrl: string, init: RequestInit = {}) {
  return fetch(`${baseUrl}/api/marketplace/onboard`, {
    method: "POST",
    headers: { authorization: `Bearer ${SIM_TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify(anOnboardRequest({ order_id: "ord_process" })),
    ...init,
  });
}

const identifiersOf = (tenant: Tenant) => Object.fromEntries(IDENTIFIERS.map((field) => [field, tenant[field]]));

describe("provider-sim as a process", () => {
  test("20 concurrent identical onboards over HTTP: one 201; a restarted simulator hands out the same identifiers", async () => {
    const first = await startProviderSim({ PROVIDER_SIM_PUBLIC_URL: PUBLIC_URL });
    let responses: { status: number; body: Tenant }[];
    try {
      responses = await Promise.all(
        Array.from({ length: 20 }, async () => {
          const response = await onboard(first.url);
          return { status: response.status, body: (await response.json()) as Tenant };
        }),
      );
    } finally {
      expect(await first.stop("SIGTERM")).toBe(0);
    }
    expect(responses.filter((r) => r.status === 201)).toHaveLength(1);
    expect(responses.filter((r) => r.status === 200)).toHaveLength(19);
    for (const response of responses) expect(response.body).toEqual(responses[0]?.body as Tenant);

    const second = await startProviderSim({ PROVIDER_SIM_PUBLIC_URL: PUBLIC_URL });
    try {
      const again = await onboard(second.url);
      expect(again.status).toBe(201);
      expect(identifiersOf((await again.json()) as Tenant)).toEqual(identifiersOf(responses[0]?.body as Tenant));
    } finally {
      expect(await second.stop("SIGTERM")).toBe(0);
    }
  });

  test("a hung call times out at the client while others are served; SIGTERM still exits 0", async () => {
    const sim = await startProviderSim();
    try {
      const fault = await fetch(`${sim.url}/__sim/faults`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ route: "onboard", mode: "hang", count: 1 }),
      });
      expect(fault.status).toBe(201);
      const hung = onboard(sim.url, { signal: AbortSignal.timeout(300) });
      expect((await fetch(`${sim.url}/health`)).status).toBe(200);
      expect(
        await hung.then(
          () => "answered",
          (error: Error) => error.name,
        ),
      ).toBe("TimeoutError");
      // The hung call never reached the handler, so the tenant is created now, not then.
      expect((await onboard(sim.url)).status).toBe(201);
    } finally {
      expect(await sim.stop("SIGTERM")).toBe(0);
    }
  });

  test("the logs never carry the token, the hmac secret or the Authorization header", async () => {
    const sim = await startProviderSim();
    await onboard(sim.url);
    await fetch(`${sim.url}/api/marketplace/admin/plans`, { headers: { authorization: "Bearer wrong-token" } });
    expect(await sim.stop("SIGTERM")).toBe(0);
    const output = await sim.output();
    expect(output).toContain('"msg":"provider simulator listening"');
    expect(output).not.toContain(SIM_TOKEN);
    expect(output).not.toContain(SIM_HMAC_SECRET);
    expect(output).not.toContain("wrong-token");
    expect(output.toLowerCase()).not.toContain("authorization");
  });

  test("with the gateway variables set, both sandboxes serve over HTTP and their secrets stay out of the logs", async () => {
    const secrets = {
      GATEWAY_A_SANDBOX_API_KEY: "pdl_sdbx_process_key_0123456789",
      GATEWAY_A_SANDBOX_WEBHOOK_SECRET: "pdl_ntfset_process_secret_0123456789",
      GATEWAY_B_SANDBOX_API_KEY: "sk_test_process_key_0123456789",
      GATEWAY_B_SANDBOX_WEBHOOK_SECRET: "whsec_process_secret_0123456789",
    };
    const sim = await startProviderSim({ ...secrets, PROVIDER_SIM_MARKETPLACE_URL: "http://127.0.0.1:9" });
    try {
      const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
      const balance = await fetch(`${sim.url}/gateway_b/v1/balance`, {
        headers: bearer(secrets.GATEWAY_B_SANDBOX_API_KEY),
      });
      expect(balance.status).toBe(200);
      expect(((await balance.json()) as { object: string }).object).toBe("balance");
      const events = await fetch(`${sim.url}/gateway_a/event-types`, {
        headers: bearer(secrets.GATEWAY_A_SANDBOX_API_KEY),
      });
      expect(events.status).toBe(200);
      const session = await fetch(`${sim.url}/gateway_b/v1/checkout/sessions`, {
        method: "POST",
        headers: { ...bearer(secrets.GATEWAY_B_SANDBOX_API_KEY), "content-type": "application/x-www-form-urlencoded" },
        body: "mode=payment&line_items[0][quantity]=1&line_items[0][price_data][currency]=usd&line_items[0][price_data][unit_amount]=500&line_items[0][price_data][product_data][name]=Theme",
      });
      const { id } = (await session.json()) as { id: string };
      const paid = await fetch(`${sim.url}/checkout/gateway_b/${id}/pay`, { method: "POST" });
      expect(await paid.json()).toMatchObject({ delivered: false, status: null });
    } finally {
      expect(await sim.stop("SIGTERM")).toBe(0);
    }
    const output = await sim.output();
    expect(output).toContain('"gateway_sandboxes":["gateway_a","gateway_b"]');
    expect(output).toContain('"msg":"gateway webhook not delivered"');
    for (const secret of Object.values(secrets)) expect(output).not.toContain(secret);
  });

  test("without PROVIDER_SIM_TOKEN a token is generated and printed once at start", async () => {
    const sim = await startProviderSim({ PROVIDER_SIM_TOKEN: "" });
    try {
      const plans = await fetch(`${sim.url}/api/marketplace/admin/plans`, {
        headers: { authorization: `Bearer ${SIM_TOKEN}` },
      });
      expect(plans.status).toBe(401);
    } finally {
      await sim.stop("SIGTERM");
    }
    const output = await sim.output();
    const token = /"generated_bearer_token":"([^"]+)"/.exec(output)?.[1];
    expect(token).toEqual(expect.any(String));
    expect(output.split(token as string)).toHaveLength(2);
  });

  test("the mail sandbox: its SMTP URL is logged; garbage on the socket never stops it; SIGTERM exits 0 with a client still connected", async () => {
    const sim = await startProviderSim();
    const port = Number(new URL(sim.smtpUrl).port);
    const idle = connect(port, "127.0.0.1");
    idle.on("error", () => {});
    let stoppedInMs = Number.POSITIVE_INFINITY;
    try {
      const transport = nodemailer.createTransport(sim.smtpUrl);
      const conversations = [
        [new Uint8Array(4096).map((_, i) => (i * 151) % 256), "\r\n"],
        ["EHLO client.test\r\n", `${"A".repeat(100_000)}\r\n`],
        ["EHLO client.test\r\n", "DATA\r\n", "RCPT TO:<ada@example.com>\r\n", "QUIT\r\n"],
        [
          "EHLO client.test\r\n",
          "MAIL FROM:<a@example.com>\r\n",
          "RCPT TO:<ada@example.com>\r\n",
          "DATA\r\n",
          "Subject: cut",
        ],
      ];
      const replies = [];
      for (const lines of conversations) replies.push(await rawSmtp(port, lines));
      expect(replies[0]).toContain("\r\n500 ");
      expect(replies[1]).toContain("\r\n421 Error: Command line too long");
      expect(replies[2]).toMatch(/\r\n503 /);
      expect(await sendCode(transport, aMessage({ subject: "after the garbage" }))).toBe(250);
      const listed = await fetch(`${sim.url}/__sim/mail`, { headers: { accept: "application/json" } });
      const { items } = (await listed.json()) as { items: { subject: string }[] };
      expect(items.map((mail) => mail.subject)).toEqual(["after the garbage"]);
    } finally {
      const stopping = performance.now();
      expect(await sim.stop("SIGTERM")).toBe(0);
      stoppedInMs = performance.now() - stopping;
      idle.destroy();
    }
    expect(stoppedInMs).toBeLessThan(4_000);
    expect(await sim.output()).toContain(`"smtp_url":"smtp://0.0.0.0:${port}"`);
  });

  test("PROVIDER_SIM_SMTP_PORT held by another server: one line naming it and a non-zero exit", async () => {
    const squatter = Bun.listen({ hostname: "0.0.0.0", port: 0, socket: { data() {} } });
    try {
      const { code, stdout, stderr } = await runToExit("provider-sim/main.ts", {
        PROVIDER_SIM_PORT: String(await freePort()),
        PROVIDER_SIM_SMTP_PORT: String(squatter.port),
      });
      expect(code).not.toBe(0);
      expect(stdout).not.toContain("provider simulator listening");
      expect(stderr.trim().split("\n")).toEqual([
        `provider-sim: port ${squatter.port} (PROVIDER_SIM_SMTP_PORT) is already in use; stop what holds it or set PROVIDER_SIM_SMTP_PORT to a free port.`,
      ]);
    } finally {
      squatter.stop(true);
    }
  });

  test("PROVIDER_SIM_PORT=abc exits non-zero with one line naming the variable", async () => {
    const { code, stdout, stderr } = await runToExit("provider-sim/main.ts", { PROVIDER_SIM_PORT: "abc" });
    expect(code).not.toBe(0);
    expect(stdout).toBe("");
    const lines = stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("PROVIDER_SIM_PORT");
  });
});
