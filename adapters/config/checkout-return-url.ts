import { ConfigError, type Env, text } from "../../kit/env-parsers.ts";

export const ORDER_ID_PLACEHOLDER = "{order_id}";

/**
 * `CHECKOUT_RETURN_URL`: where a gateway sends the customer after checkout, as a template with
 * `{order_id}`; a shop with its own storefront points it there. Default: our own order status page.
 */
export function checkoutReturnUrlTemplate(env: Env, publicBaseUrl: string): string {
  const raw = text(env, "CHECKOUT_RETURN_URL");
  if (raw === undefined) return `${publicBaseUrl.replace(/\/+$/, "")}/orders/${ORDER_ID_PLACEHOLDER}`;
  if (!raw.includes(ORDER_ID_PLACEHOLDER)) {
    throw new ConfigError("CHECKOUT_RETURN_URL", `must contain ${ORDER_ID_PLACEHOLDER}`, raw);
  }
  let protocol: string;
  try {
    protocol = new URL(raw.replaceAll(ORDER_ID_PLACEHOLDER, "x")).protocol;
  } catch {
    throw new ConfigError("CHECKOUT_RETURN_URL", "must be a valid URL", raw);
  }
  if (protocol !== "http:" && protocol !== "https:") {
    throw new ConfigError("CHECKOUT_RETURN_URL", "must use http: or https:", raw);
  }
  return raw;
}

/**
 * The template filled in for one order, with `checkout=success|cancelled` added to its query, and
 * a guest's order access as `access`.
 */
export function checkoutReturnUrl(
  template: string,
  orderId: string,
  outcome: "success" | "cancelled",
  access?: string,
): string {
  const url = new URL(template.replaceAll(ORDER_ID_PLACEHOLDER, encodeURIComponent(orderId)));
  // Appended by hand: searchParams would re-encode the storefront's own query.
  const added = `checkout=${outcome}${access ? `&access=${encodeURIComponent(access)}` : ""}`;
  url.search = url.search ? `${url.search}&${added}` : `?${added}`;
  return url.href;
}

/** Our own order status page for one order, with a guest's access. */
export function orderStatusUrl(publicBaseUrl: string, orderId: string, access?: string): string {
  const url = new URL(`/orders/${encodeURIComponent(orderId)}`, publicBaseUrl);
  if (access) url.search = `?access=${encodeURIComponent(access)}`;
  return url.href;
}

/** Where the gateway returns the customer after paying or giving up, per order, and the order's status page. */
export function checkoutReturnUrls(template: string, publicBaseUrl: string) {
  return {
    success: (orderId: string, access?: string) => checkoutReturnUrl(template, orderId, "success", access),
    cancel: (orderId: string, access?: string) => checkoutReturnUrl(template, orderId, "cancelled", access),
    status: (orderId: string, access?: string) => orderStatusUrl(publicBaseUrl, orderId, access),
  };
}
