import { describe, expect, test } from "bun:test";
import { aDedicatedInstallationProduct } from "../support/builders/products.ts";
import { useTestDatabase } from "../support/database.ts";
import {
  buyAndPay,
  createProduct,
  eventually,
  fulfillmentsOf,
  http,
  registerCustomer,
  useE2e,
} from "../support/e2e.ts";

const db = useTestDatabase();
const e2e = useE2e(db);

async function awaitingDomain(productId: string) {
  const customer = await registerCustomer(e2e);
  const { orderId } = await buyAndPay(e2e, customer, [{ product_id: productId, variant: "monthly" }], "gateway_b");
  const record = await eventually(
    async () => {
      const [found] = await fulfillmentsOf(db, orderId);
      return found?.status === "awaiting_customer" ? found : undefined;
    },
    4000,
    "an awaiting_customer fulfillment",
  );
  const supply = (domain: string) =>
    http(e2e.url, "POST", `/api/fulfillments/${record.id}/customer-input`, { token: customer.token, body: { domain } });
  return { record, orderId, supply };
}

describe("a customer's installation domain", () => {
  test("is one live installation's: another customer gets 409, the platform's own domains 422", async () => {
    const product = await createProduct(e2e, aDedicatedInstallationProduct({ name: "Dedicated Books" }));
    const first = await awaitingDomain(product.id);
    const second = await awaitingDomain(product.id);

    expect((await first.supply("claimed.example.com")).body.status).toBe("processing");
    for (const taken of ["claimed.example.com", " Claimed.Example.COM. "]) {
      const refused = await second.supply(taken);
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ code: "DOMAIN_TAKEN" });
    }
    for (const platform of ["installs.localhost", "books-1234abcd.installs.localhost"]) {
      const refused = await second.supply(platform);
      expect(refused.status).toBe(422);
      expect(refused.body.errors).toEqual([expect.objectContaining({ path: "/domain", code: "DOMAIN_RESERVED" })]);
    }
    const newline = await second.supply("other.example.com\nEvil: yes");
    expect(newline.status).toBe(422);
    expect((await fulfillmentsOf(db, second.orderId))[0]?.status).toBe("awaiting_customer");

    expect((await second.supply("other.example.com")).body.status).toBe("processing");
    const openTasks = () => db.current.sql<{ instructions: string }[]>`
      select instructions from ops_tasks
      where status = 'open' and fulfillment_record_id in (${first.record.id}, ${second.record.id})`;
    const tasks = await eventually(
      async () => {
        const found = await openTasks();
        return found.length === 2 ? found : undefined;
      },
      4000,
      "two provisioning tasks",
    );
    const domains = tasks.map((task) => /Domain: (\S+)/.exec(task.instructions)?.[1]).sort();
    expect(domains).toEqual(["claimed.example.com", "other.example.com"]);
  }, 30_000);
});
