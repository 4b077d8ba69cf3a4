import { beforeAll, expect } from "bun:test";
import type { Page } from "playwright-core";
import type { Fault } from "../../../provider-sim/faults.ts";
import { useBrowser, watchPage } from "../../support/browser.ts";
import {
  aDedicatedInstallationProduct,
  aLicenseProduct,
  aManagedSetupProduct,
} from "../../support/builders/products.ts";
import { useTestDatabase } from "../../support/database.ts";
import {
  buyAndPay,
  createProduct,
  failOnboarding,
  fulfillmentReaches,
  http,
  posProductFor,
  useE2e,
} from "../../support/e2e.ts";

export interface Customer {
  readonly email: string;
  readonly password: string;
  readonly token: string;
}

export interface Product {
  readonly id: string;
  readonly name: string;
}

/**
 * The running marketplace with one product of each kind the account shows, a browser, and the
 * customers' side of buying: registered and paid over the API, looked at in the page.
 */
export function useAccountFixture() {
  const db = useTestDatabase();
  const e2e = useE2e(db);
  const products: Record<"pos" | "licensed" | "setup" | "dedicated", Product> = {} as never;
  const browser = useBrowser();

  const aProduct = async (input: { name: string }) => ({ id: (await createProduct(e2e, input)).id, name: input.name });

  beforeAll(async () => {
    products.pos = await aProduct(posProductFor(e2e));
    products.licensed = await aProduct(
      aLicenseProduct({
        default_release_version: "3.1.0",
        fulfillment_config: {
          license_type: "commercial",
          artifact_source: `${e2e.sim.url}/artifacts/app`,
          max_activations: 3,
          offline_checkout_max_days: 30,
        },
      }),
    );
    products.setup = await aProduct(
      aManagedSetupProduct({ sla_hours: 48, instructions_template: "Set up {{order_id}}" }),
    );
    products.dedicated = await aProduct(aDedicatedInstallationProduct());
  }, 30_000);

  return {
    db,
    e2e,
    products,

    async aCustomer(): Promise<Customer> {
      const email = `account-${crypto.randomUUID()}@example.com`;
      const password = "customer password";
      const body = { email, password, name: "Account" };
      const registered = await http(e2e.url, "POST", "/api/auth/register", { body });
      expect(registered.status).toBe(201);
      return { email, password, token: registered.body.token };
    },

    /** Bought and paid through the API; waits until its delivery reaches `status`. */
    async bought(customer: Customer, product: Product, variant: string, status = "active") {
      const { orderId } = await buyAndPay(e2e, customer, [{ product_id: product.id, variant }], "gateway_b");
      return fulfillmentReaches(db, orderId, status, 8000);
    },

    get: async (customer: Customer, path: string) => (await http(e2e.url, "GET", path, { token: customer.token })).body,

    async newPage(width = 1280, height = 900) {
      const page = await browser.newPage();
      await page.setViewportSize({ width, height });
      return { page, watched: watchPage(page) };
    },

    /** One purchased item, named by its heading: the product and its variant. */
    purchase: (page: Page, product: Product, variant: string) =>
      page.getByRole("article", { name: `${product.name} (${variant})` }),

    /** The provider simulator's next `count` onboarding calls fail or wait, as `fault` says. */
    onboarding: (fault: Omit<Fault, "route">) => failOnboarding(e2e, fault),
  };
}
