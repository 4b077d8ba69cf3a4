import { afterAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import type { RecordedExchange } from "../../../provider-sim/gateways/exchange-recorder.ts";
import type { GatewayName } from "../../../provider-sim/gateways/webhook-deliverer.ts";
import { exchangeKinds } from "../../../scripts/lib/gateway-types/plan.ts";
import { findingLines, summaryLine } from "../../../scripts/lib/gateway-types/report.ts";
import { checkExchanges } from "../../../scripts/lib/gateway-types/type-check.ts";
import { createGatewaySim, type GatewaySim, startMarketplace } from "./harness.ts";
import { EXPECTED_KINDS } from "./official-types/expected-kinds.ts";
import { everyPaddleExchange } from "./official-types/paddle-flows.ts";
import { everyStripeExchange } from "./official-types/stripe-flows.ts";

/**
 * What the lifecycle test (tests/e2e/gateway-official-types.test.ts) does not reach, checked by the
 * same engine in one compile: every object, list, refusal and event kind each sandbox produces, and
 * every request the marketplace's adapters send, against the official `stripe` and
 * `@paddle/paddle-node-sdk` types.
 */
const stops: (() => void)[] = [];
afterAll(() => {
  for (const stop of stops) stop();
});

/** A sandbox of its own, recording, served on a free port for the marketplace's adapter. */
function recordingSim() {
  const marketplace = startMarketplace();
  const sim = createGatewaySim({ PROVIDER_SIM_MARKETPLACE_URL: marketplace.url });
  const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: sim.app.fetch });
  stops.push(() => server.stop(true), marketplace.stop);
  sim.gateways.exchanges.setRecording(true);
  return { sim, marketplace, url: `http://127.0.0.1:${server.port}` };
}

const recordingOf = (sim: GatewaySim, gateway: GatewayName, seqFrom: number): RecordedExchange[] => {
  const { exchanges, dropped } = sim.gateways.exchanges.entries();
  expect(dropped).toBe(0);
  return exchanges
    .filter((exchange) => exchange.gateway === gateway)
    .map((exchange) => ({ ...exchange, seq: exchange.seq + seqFrom }));
};

/** A request made wrong on purpose for the refusal it earns (Paddle's listing of unknown fields): only the answer is judged. */
const answerOnly = (exchange: RecordedExchange): RecordedExchange =>
  exchange.kind === "call" && exchange.status === 400 && exchange.gateway === "gateway_a"
    ? { ...exchange, request: null }
    : exchange;

describe("both sandboxes and the marketplace's adapters speak the official types (tsc --strict, object literals)", () => {
  test("every request, object, list, refusal and event kind matches, nothing missing and nothing extra", async () => {
    const paddle = recordingSim();
    await everyPaddleExchange(paddle.sim, `${paddle.url}/gateway_a`);
    await paddle.marketplace.settle();
    const stripe = recordingSim();
    await everyStripeExchange(stripe.sim, stripe.marketplace, `${stripe.url}/gateway_b`);

    const paddleExchanges = recordingOf(paddle.sim, "gateway_a", 0).map(answerOnly);
    const exchanges = [...paddleExchanges, ...recordingOf(stripe.sim, "gateway_b", paddleExchanges.length + 1_000)];
    for (const gateway of ["gateway_a", "gateway_b"] as const) {
      expect([...exchangeKinds(exchanges, gateway)].sort()).toEqual(EXPECTED_KINDS[gateway]);
    }

    const report = checkExchanges(exchanges);
    const findings = findingLines(report.findings);
    rmSync(report.directory, { recursive: true });
    expect(findings, `${summaryLine(report)}\n${findings.join("\n")}`).toEqual([]);
  }, 120_000);
});
