import type {
  CheckoutDiscount,
  GatewayDiscountRefs,
  GatewayRuntimeSettings,
  GatewaySettingsSource,
} from "../../../application/payments/ports.ts";
import { UpstreamBadResponse, UpstreamRejected } from "../../../application/shared/errors.ts";
import type { Mutex } from "../../../application/shared/ports.ts";
import { WHOLE_PRICE_BASIS_POINTS } from "../../../domain/discounts/discount.ts";
import type { GatewayEnvironment } from "../../../domain/payments/gateway-event.ts";
import { isRecord } from "../../../domain/shared/is-record.ts";
import { type PaddleEnvelope, sendPaddle } from "./paddle-http.ts";

/** A bound on following `next` links, so a gateway that pages forever cannot hold a checkout forever. */
const MAX_PAGES = 50;

/**
 * Paddle counts a discount's reach in billing periods (`maximum_recurring_intervals`), not months:
 * one Paddle discount serves every order whose code lowers the same number of payments. `all`: it
 * recurs for ever.
 */
const slotOf = (discount: CheckoutDiscount) => (discount.payments === null ? "all" : String(discount.payments));

function discountBody(discount: CheckoutDiscount, slot: string) {
  const money =
    discount.type === "percent"
      ? { type: "percentage", amount: String(discount.amount / (WHOLE_PRICE_BASIS_POINTS / 100)) }
      : { type: "flat", amount: String(discount.amount), currency_code: discount.currency };
  return {
    ...money,
    description: discount.code,
    enabled_for_checkout: false,
    code: null,
    recur: discount.payments !== 1,
    maximum_recurring_intervals: discount.payments === null || discount.payments === 1 ? null : discount.payments,
    custom_data: { marketplace_discount_id: discount.discount_id, payments: slot },
  };
}

const idOf = (data: unknown): string => {
  if (!isRecord(data) || typeof data.id !== "string") throw new UpstreamBadResponse("gateway", "a discount has no id");
  return data.id;
};

/** The active discount made for this code and slot on a page of `GET /discounts`, and the next page. */
function findOnPage(page: PaddleEnvelope, discountId: string, slot: string) {
  if (!Array.isArray(page.data)) throw new UpstreamBadResponse("gateway", "the discount list is not an array");
  const found = page.data.find(
    (entry) =>
      isRecord(entry) &&
      isRecord(entry.custom_data) &&
      entry.custom_data.marketplace_discount_id === discountId &&
      entry.custom_data.payments === slot,
  );
  const pagination = isRecord(page.meta) && isRecord(page.meta.pagination) ? page.meta.pagination : {};
  const next = pagination.has_more === true && typeof pagination.next === "string" ? pagination.next : null;
  return { found: found === undefined ? undefined : idOf(found), next };
}

async function lookUp(settings: GatewayRuntimeSettings, discountId: string, slot: string) {
  let page = await sendPaddle(settings, {
    method: "GET",
    target: "/discounts",
    query: { per_page: "200", status: "active" },
  });
  for (let pages = 1; ; pages++) {
    const { found, next } = findOnPage(page, discountId, slot);
    if (found !== undefined) return found;
    if (next === null) return undefined;
    // Saying "not found" after a cut-off would make a second discount.
    if (pages >= MAX_PAGES) throw new UpstreamBadResponse("gateway", `the discount list goes past ${MAX_PAGES} pages`);
    page = await sendPaddle(settings, { method: "GET", target: new URL(next) });
  }
}

/**
 * The Paddle discount a checkout applies as `discount_id`: the stored id for this environment, else
 * one found at Paddle by its `custom_data` (made before its id was stored), else a new one. Ids are
 * kept per environment: a sandbox discount never names a live one.
 */
export async function ensurePaddleDiscount(
  settings: GatewayRuntimeSettings,
  environment: GatewayEnvironment,
  { refs, mutex }: { readonly refs: GatewayDiscountRefs; readonly mutex: Mutex },
  discount: CheckoutDiscount,
): Promise<string> {
  const slot = slotOf(discount);
  const stored = await refs.find(discount.discount_id, "gateway_a", environment, slot);
  if (stored !== undefined) return stored;
  // Paddle takes no idempotency key: checkouts racing to make the same discount take turns, and
  // the ones after the first find its id stored.
  return mutex.withLock(`paddle-discount:${environment}:${discount.discount_id}:${slot}`, async () => {
    const made = await refs.find(discount.discount_id, "gateway_a", environment, slot);
    if (made !== undefined) return made;
    const id =
      (await lookUp(settings, discount.discount_id, slot)) ??
      idOf(
        (await sendPaddle(settings, { method: "POST", target: "/discounts", body: discountBody(discount, slot) })).data,
      );
    return refs.put(discount.discount_id, "gateway_a", environment, slot, id);
  });
}

/** Archives every Paddle discount made for the code in this environment; one Paddle does not know is gone already. */
export async function archivePaddleDiscounts(
  source: GatewaySettingsSource,
  environment: GatewayEnvironment,
  refs: GatewayDiscountRefs,
  discountId: string,
): Promise<void> {
  const made = await refs.list(discountId, "gateway_a", environment);
  // Nothing was made there: nothing to ask, even of a gateway not set up.
  if (made.length === 0) return;
  const settings = await source.resolve("gateway_a");
  for (const remoteId of made) {
    try {
      await sendPaddle(settings, {
        method: "PATCH",
        target: `/discounts/${encodeURIComponent(remoteId)}`,
        body: { status: "archived" },
      });
    } catch (error) {
      if (!(error instanceof UpstreamRejected && error.status === 404)) throw error;
    }
  }
}

/** Discount ids kept in this process only: each is still found again at Paddle by its `custom_data`. */
export function discountRefsInMemory(): GatewayDiscountRefs {
  const ids = new Map<string, string>();
  const key = (...parts: readonly string[]) => parts.join("|");
  return {
    find: async (discountId, gateway, environment, slot) => ids.get(key(discountId, gateway, environment, slot)),
    async put(discountId, gateway, environment, slot, remoteId) {
      const at = key(discountId, gateway, environment, slot);
      if (!ids.has(at)) ids.set(at, remoteId);
      return ids.get(at) ?? remoteId;
    },
    list: async (discountId, gateway, environment) =>
      [...ids].filter(([at]) => at.startsWith(key(discountId, gateway, environment, ""))).map(([, id]) => id),
  };
}
