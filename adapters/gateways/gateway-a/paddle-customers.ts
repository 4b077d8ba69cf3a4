import type { GatewayRuntimeSettings } from "../../../application/payments/ports.ts";
import { UpstreamBadResponse, UpstreamRejected } from "../../../application/shared/errors.ts";
import { isRecord } from "../../../domain/shared/is-record.ts";
import { sendPaddle } from "./paddle-http.ts";

const bad = (reason: string): never => {
  throw new UpstreamBadResponse("gateway", reason);
};

const CUSTOMER_ID = /^ctm_[a-z\d]+$/;

/** The id of a Paddle `Customer`. */
function readCustomerId(value: unknown): string {
  if (!isRecord(value) || typeof value.id !== "string" || !CUSTOMER_ID.test(value.id)) {
    return bad("the customer lacks an id");
  }
  return value.id;
}

/** The first active customer of a `GET /customers` page, if any. */
function readActiveCustomerId(data: unknown): string | undefined {
  if (!Array.isArray(data)) return bad("the customer list is not an array");
  const ids = data.map((customer) => ({
    id: readCustomerId(customer),
    status: (customer as { status?: unknown }).status,
  }));
  return ids.find((customer) => customer.status === "active")?.id;
}

/** Paddle's 409 `customer_already_exists` says "customer email conflicts with customer of id ctm_…". */
function conflictingCustomerId(error: unknown): string | undefined {
  if (!(error instanceof UpstreamRejected) || error.status !== 409) return undefined;
  if (error.upstreamCode !== "customer_already_exists") return undefined;
  return /customer of id (ctm_[a-z\d]+)/.exec(error.detail ?? "")?.[1];
}

async function findByEmail(settings: GatewayRuntimeSettings, email: string): Promise<string | undefined> {
  const { data } = await sendPaddle(settings, { method: "GET", target: "/customers", query: { email } });
  return readActiveCustomerId(data);
}

/**
 * The Paddle customer a checkout names, as Paddle's API does: found by email, or created. Two
 * checkouts racing to create the same customer both end up with the one Paddle kept (the loser
 * reads its id from the `customer_already_exists` conflict).
 */
export async function paddleCustomerFor(
  settings: GatewayRuntimeSettings,
  customer: { readonly email: string; readonly name: string },
): Promise<string> {
  const found = await findByEmail(settings, customer.email);
  if (found !== undefined) return found;
  try {
    const body = { email: customer.email, ...(customer.name.trim() === "" ? {} : { name: customer.name }) };
    const { data } = await sendPaddle(settings, { method: "POST", target: "/customers", body });
    return readCustomerId(data);
  } catch (error) {
    const existing = conflictingCustomerId(error);
    if (existing === undefined) throw error;
    return existing;
  }
}
