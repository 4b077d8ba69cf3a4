import type { SimClock } from "../../clock.ts";
import type { FormObject } from "../form-body.ts";
import { newGatewayId } from "../ids.ts";
import { PRICE_DEFAULTS, PRODUCT_DEFAULTS } from "./catalog-defaults.ts";
import { StripeError } from "./errors.ts";
import { INTERVALS, type Recurring, type StripePrice, type StripeProduct, TAX_BEHAVIORS } from "./model.ts";
import {
  currency,
  metadata,
  oneOf,
  optionalBoolean,
  optionalHash,
  optionalInteger,
  optionalString,
  rejectUnknown,
  requiredInteger,
  requiredString,
} from "./params.ts";
import { productMatcher } from "./search-query.ts";

export type GatewayBCatalog = ReturnType<typeof createGatewayBCatalog>;

/** `recurring[interval]`, `recurring[interval_count]` → a Stripe `recurring` hash, or null. */
export function recurringOf(value: FormObject[string] | undefined, param: string): Recurring | null {
  const hash = optionalHash(value, param);
  if (!hash) return null;
  return {
    interval: oneOf(hash.interval, `${param}[interval]`, INTERVALS),
    interval_count: optionalInteger(hash.interval_count, `${param}[interval_count]`, 1, 365) ?? 1,
    meter: null,
    usage_type: "licensed",
    trial_period_days: null,
  };
}

/** Products and prices of the gateway_b sandbox, in creation order. */
export function createGatewayBCatalog(clock: SimClock) {
  const products = new Map<string, StripeProduct>();
  const prices = new Map<string, StripePrice>();
  const now = () => Math.floor(clock.now().getTime() / 1000);

  function product(id: string, param = "id"): StripeProduct {
    const found = products.get(id);
    if (!found) throw StripeError.noSuch("product", id, param);
    return found;
  }

  function price(id: string, param = "id"): StripePrice {
    const found = prices.get(id);
    if (!found) throw StripeError.noSuch("price", id, param);
    return found;
  }

  /** A price from form parameters; `productId` has been checked by the caller. */
  function buildPrice(form: FormObject, productId: string, param = ""): StripePrice {
    const at = (name: string) => (param ? `${param}[${name}]` : name);
    const recurring = recurringOf(form.recurring, at("recurring"));
    const unitAmount = requiredInteger(form.unit_amount, at("unit_amount"), 0, 99_999_999);
    return {
      id: newGatewayId("price"),
      object: "price",
      ...PRICE_DEFAULTS,
      active: optionalBoolean(form.active, at("active")) ?? true,
      billing_scheme: "per_unit",
      currency: currency(form.currency, at("currency")),
      unit_amount: unitAmount,
      unit_amount_decimal: String(unitAmount),
      product: productId,
      recurring,
      tax_behavior:
        form.tax_behavior === undefined ? "unspecified" : oneOf(form.tax_behavior, at("tax_behavior"), TAX_BEHAVIORS),
      type: recurring ? "recurring" : "one_time",
      nickname: optionalString(form.nickname, at("nickname")),
      lookup_key: null,
      metadata: metadata(form.metadata, at("metadata")),
      created: now(),
      livemode: false,
    };
  }

  return {
    product,
    price,
    buildPrice,
    createProduct(form: FormObject): StripeProduct {
      const created: StripeProduct = {
        id: newGatewayId("prod"),
        object: "product",
        ...PRODUCT_DEFAULTS,
        active: optionalBoolean(form.active, "active") ?? true,
        name: requiredString(form.name, "name"),
        description: optionalString(form.description, "description"),
        metadata: metadata(form.metadata, "metadata"),
        created: now(),
        updated: now(),
        livemode: false,
      };
      products.set(created.id, created);
      return created;
    },
    /** The product's prices, in creation order. */
    pricesOf: (productId: string) => [...prices.values()].filter((each) => each.product === productId),
    /** Keeps a price built elsewhere (an inline `price_data` price). */
    addPrice(price: StripePrice): StripePrice {
      prices.set(price.id, price);
      return price;
    },
    /** The product an inline `product_data` makes: a product of its own, as at Stripe. */
    inlineProduct(name: string): StripeProduct {
      const created: StripeProduct = {
        id: newGatewayId("prod"),
        object: "product",
        ...PRODUCT_DEFAULTS,
        active: true,
        name,
        description: null,
        metadata: {},
        created: now(),
        updated: now(),
        livemode: false,
      };
      products.set(created.id, created);
      return created;
    },
    searchProducts: (query: string) => [...products.values()].filter(productMatcher(query)),
    createPrice(form: FormObject): StripePrice {
      const owner = product(requiredString(form.product, "product"), "product");
      const created = buildPrice(form, owner.id);
      prices.set(created.id, created);
      return created;
    },
    /** Stripe prices are immutable: only `active`, `nickname` and `metadata` change. */
    updatePrice(id: string, form: FormObject): StripePrice {
      rejectUnknown(form, ["active", "nickname", "metadata"]);
      const current = price(id);
      const active = optionalBoolean(form.active, "active");
      const nickname = optionalString(form.nickname, "nickname");
      const updated: StripePrice = {
        ...current,
        ...(active === null ? {} : { active }),
        ...(nickname === null ? {} : { nickname }),
        metadata: { ...current.metadata, ...metadata(form.metadata, "metadata") },
      };
      prices.set(id, updated);
      return updated;
    },
    clear() {
      products.clear();
      prices.clear();
    },
  };
}
