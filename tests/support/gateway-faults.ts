import { expect } from "bun:test";
import type { Fault } from "../../provider-sim/faults.ts";
import type { E2e } from "./e2e.ts";

const SESSION_ROUTES = { gateway_a: "gateway_a_transactions", gateway_b: "gateway_b_checkout_sessions" } as const;

/** The sandbox's next `count` calls that open a checkout fail, hang or answer late, as `fault` says. */
export async function failCheckoutSessions(
  e2e: E2e,
  gateway: "gateway_a" | "gateway_b",
  fault: Omit<Fault, "route">,
): Promise<void> {
  const response = await fetch(`${e2e.sim.url}/__sim/faults`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ route: SESSION_ROUTES[gateway], ...fault }),
  });
  expect(response.status).toBe(201);
}

/** Pays a checkout on the sandbox's hosted page; the gateway's webhook goes out at once. */
export async function payAtSandbox(e2e: E2e, gateway: "gateway_a" | "gateway_b", sessionId: string) {
  const paid = await fetch(`${e2e.sim.url}/checkout/${gateway}/${sessionId}/pay`, { method: "POST" });
  return (await paid.json()) as { delivered: boolean; status: number | null };
}
