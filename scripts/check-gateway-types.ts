/**
 * Checks what the gateway sandboxes said and heard against the official `stripe` and
 * `@paddle/paddle-node-sdk` types, and prints every finding.
 *
 *   bun scripts/check-gateway-types.ts http://127.0.0.1:4010        # a running simulator's recording
 *   bun scripts/check-gateway-types.ts exchanges.json [gateway_b]    # a saved recording, one gateway
 *
 * A simulator records only after `POST /__sim/gateway_exchanges {"recording": true}`; the
 * lifecycle test (tests/e2e/gateway-official-types.test.ts) saves its recording beside the
 * generated check file it names. Exits 1 when anything does not match.
 */
import { readFileSync } from "node:fs";
import type { RecordedExchange } from "../provider-sim/gateways/exchange-recorder.ts";
import type { GatewayName } from "../provider-sim/gateways/webhook-deliverer.ts";
import { findingLines, summaryLine } from "./lib/gateway-types/report.ts";
import { checkExchanges } from "./lib/gateway-types/type-check.ts";

async function recording(source: string): Promise<RecordedExchange[]> {
  if (/^https?:\/\//.test(source)) {
    const response = await fetch(`${source.replace(/\/$/, "")}/__sim/gateway_exchanges`);
    if (!response.ok) throw new Error(`${source} answered ${response.status}: are its controls on?`);
    return ((await response.json()) as { exchanges: RecordedExchange[] }).exchanges;
  }
  const saved = JSON.parse(readFileSync(source, "utf8")) as RecordedExchange[] | { exchanges: RecordedExchange[] };
  return Array.isArray(saved) ? saved : saved.exchanges;
}

const [source, gateway] = process.argv.slice(2);
if (!source || (gateway !== undefined && gateway !== "gateway_a" && gateway !== "gateway_b")) {
  console.error("usage: bun scripts/check-gateway-types.ts <simulator URL | recording.json> [gateway_a|gateway_b]");
  process.exit(2);
}
const report = checkExchanges(await recording(source));
const lines = findingLines(report.findings, gateway as GatewayName | undefined);
for (const line of lines) console.log(line);
console.log(summaryLine(report));
process.exit(lines.length === 0 ? 0 : 1);
