/**
 * `npm run demo`, against a running `npm start`: a new customer buys every product through both
 * payment gateways, pays in the simulator's sandboxes, gives what the deliveries ask for, has the
 * admin finish the team's tasks, activates a license and downloads it, then prints the dashboard.
 * Exits 0 only when every item ends up active.
 */
import type { components } from "../openapi/generated/marketplace.ts";
import { DEMO_ADMIN_EMAIL, DEMO_ADMIN_PASSWORD } from "./lib/demo-admin.ts";
import { answer, HttpFailure, marketplaceClients } from "./lib/marketplace-client.ts";

const MARKETPLACE = process.env.MARKETPLACE_URL ?? `http://127.0.0.1:${process.env.PORT || 3000}`;
const SIM = process.env.PROVIDER_SIM_URL ?? `http://127.0.0.1:${process.env.PROVIDER_SIM_PORT || 4010}`;
const ADMIN = {
  email: process.env.ADMIN_EMAIL || DEMO_ADMIN_EMAIL,
  password: process.env.ADMIN_PASSWORD || DEMO_ADMIN_PASSWORD,
};
const GATEWAYS = ["gateway_a", "gateway_b"] as const;
/** Still on its way; a paid item has no fulfillment for a moment, so `pending_payment` waits too. */
const IN_FLIGHT = new Set(["queued", "processing", "pending_payment"]);
const SETTLE_MS_PER_ITEM = 20_000;

type Product = components["schemas"]["Product"];
type DashboardItem = components["schemas"]["DashboardItem"];
interface Purchase {
  gateway: string;
  product: Product;
  domain?: string;
}

const suffix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const secrets: string[] = [ADMIN.password];
const { client: marketplace, failure } = marketplaceClients({ baseUrl: MARKETPLACE, secrets });
let step = 0;
const say = (line: string) => console.log(`${String(++step).padStart(2)}. ${line}`);

/** The simulator's sandbox checkout, which is not part of the marketplace's API. */
async function pay(gateway: string, sessionId: string) {
  const url = `${SIM}/checkout/${gateway}/${sessionId}/pay`;
  const response = await fetch(url, { method: "POST" });
  const text = await response.text();
  if (!response.ok) throw failure("POST", url, response.status, text);
  return JSON.parse(text) as { delivered: boolean; status: number | null; event_id: string };
}

/** How long nothing may answer at all before the demo gives up: `npm start` is not running. */
const NOTHING_LISTENING_MS = 2_500;

/**
 * Waits for the marketplace to be ready. A marketplace that answers but is still starting gets
 * `timeoutMs`; an address where nothing answers fails at once, with the one thing to do.
 */
async function waitForReady(timeoutMs = 60_000) {
  const started = Date.now();
  let answered = false;
  while (Date.now() - started < timeoutMs) {
    const status = await fetch(`${MARKETPLACE}/ready`, { signal: AbortSignal.timeout(1_000) }).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) return;
    answered ||= status !== 0;
    if (!answered && Date.now() - started > NOTHING_LISTENING_MS) {
      throw new HttpFailure(`nothing answers at ${MARKETPLACE}: start the system first with \`npm start\``);
    }
    await Bun.sleep(250);
  }
  throw new HttpFailure(`GET /ready: ${MARKETPLACE} not ready after ${timeoutMs / 1000} s`);
}

const dashboard = (token: string) => answer(marketplace(token).GET("/api/dashboard"));

/** Polls until nothing is in flight, allowing 20 s more each time an item settles. */
async function settle(token: string): Promise<DashboardItem[]> {
  let items = (await dashboard(token)).items;
  let busy = items.filter((item) => IN_FLIGHT.has(item.status)).length;
  let deadline = Date.now() + SETTLE_MS_PER_ITEM;
  while (busy > 0 && Date.now() < deadline) {
    await Bun.sleep(200);
    items = (await dashboard(token)).items;
    const now = items.filter((item) => IN_FLIGHT.has(item.status)).length;
    if (now < busy) deadline = Date.now() + SETTLE_MS_PER_ITEM;
    busy = now;
  }
  const counts = new Map<string, number>();
  for (const item of items) counts.set(item.status, (counts.get(item.status) ?? 0) + 1);
  say(`dashboard settled: ${[...counts].map(([status, n]) => `${n} ${status}`).join(", ")}`);
  return items;
}

function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0))) ?? [];
  return rows
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column] ?? 0))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

async function main(): Promise<number> {
  // 1. Ready, admin, a new customer.
  await waitForReady();
  say(`marketplace ready at ${MARKETPLACE} (simulator ${SIM})`);
  const admin = await answer(marketplace().POST("/api/auth/login", { body: ADMIN }));
  secrets.push(admin.token);
  say(`signed in as admin ${ADMIN.email}`);
  const customerBody = { email: `demo-${suffix}@demo.example`, password: `demo-${suffix}-pw`, name: "Demo Customer" };
  secrets.push(customerBody.password);
  const customer = await answer(marketplace().POST("/api/auth/register", { body: customerBody }));
  secrets.push(customer.token);
  say(`registered customer ${customerBody.email}`);

  // 2. Every product through both gateways, paid in the sandbox.
  const { items: products } = await answer(marketplace().GET("/api/products", { params: { query: { limit: 100 } } }));
  say(`catalog: ${products.map((product) => product.slug).join(", ")}`);
  const purchases = new Map<string, Purchase>();
  for (const product of products) {
    const variant = product.checkout_options.variants[0]?.variant;
    for (const gateway of GATEWAYS) {
      if (!variant || !product.checkout_options.payment_gateways.includes(gateway)) {
        say(`${product.name}: not offered through ${gateway}, skipped`);
        continue;
      }
      // A dedicated installation gets its domain at checkout once and asks for it later once.
      const domain =
        product.delivery_model === "saas_singletenant"
          ? `${product.slug}-${suffix}-${gateway.replace("_", "-")}.demo.example`
          : undefined;
      const options = domain && gateway === GATEWAYS[0] ? { options: { domain } } : {};
      const order = await answer(
        marketplace(customer.token).POST("/api/checkout/create", {
          body: { items: [{ product_id: product.id, variant, ...options }], payment_gateway: gateway },
        }),
      );
      const paid = await pay(gateway, order.checkout.session_id);
      if (!paid.delivered || paid.status !== 200) {
        throw new HttpFailure(`payment webhook ${paid.event_id} for ${product.slug} not delivered: ${paid.status}`);
      }
      purchases.set(order.order_id, { gateway, product, ...(domain ? { domain } : {}) });
      say(`bought ${product.name} (${variant}) via ${gateway}${"options" in options ? " with a domain" : ""}: paid`);
    }
  }

  // 3 and 4. Settle; give domains, finish the team's tasks; settle again.
  let items = await settle(customer.token);
  for (let round = 0; round < 3; round++) {
    const waiting = items.filter((item) => item.status === "awaiting_customer" && item.fulfillment_id);
    const manual = new Map(
      items.filter((item) => item.status === "manual_pending" && item.fulfillment_id).map((i) => [i.fulfillment_id, i]),
    );
    if (waiting.length === 0 && manual.size === 0) break;
    for (const item of waiting) {
      const domain = purchases.get(item.order_id)?.domain ?? `demo-${suffix}.demo.example`;
      await marketplace(customer.token).POST("/api/fulfillments/{id}/customer-input", {
        params: { path: { id: item.fulfillment_id as string } },
        body: { domain },
      });
      say(`${item.product_name}: gave the domain ${domain}`);
    }
    if (manual.size > 0) {
      const tasks = await answer(
        marketplace(admin.token).GET("/api/admin/manual-tasks", { params: { query: { status: "open", limit: 100 } } }),
      );
      for (const task of tasks.items) {
        const item = manual.get(task.fulfillment_record_id);
        if (!item) continue;
        const purchase = purchases.get(item.order_id);
        const body =
          task.kind === "provisioning"
            ? { url: `https://${purchase?.domain ?? `${purchase?.product.slug ?? "install"}.demo.example`}` }
            : { notes: "done by the demo" };
        await marketplace(admin.token).POST("/api/admin/manual-tasks/{id}/complete", {
          params: { path: { id: task.id } },
          body,
        });
        say(`admin completed the ${task.kind} task of ${item.product_name}`);
      }
    }
    items = await settle(customer.token);
  }

  // 5. A license: activate it on a machine and download the release.
  const licensed = items.find((item) => item.next_action.kind === "download");
  if (licensed?.next_action.license_key) {
    const activation = await answer(
      marketplace().POST("/api/licenses/activate", {
        body: { key: licensed.next_action.license_key, fingerprint: "demo-machine-1" },
      }),
    );
    say(
      `${licensed.product_name}: license activated=${activation.activated} (${activation.activations} of ${activation.max_activations})`,
    );
    if (licensed.next_action.url) {
      const url = new URL(licensed.next_action.url, MARKETPLACE);
      const response = await fetch(url, { headers: { authorization: `Bearer ${customer.token}` } });
      const body = new Uint8Array(await response.arrayBuffer());
      if (!response.ok) throw failure("GET", response.url, response.status, new TextDecoder().decode(body));
      say(`${licensed.product_name}: downloaded ${body.byteLength} bytes through the marketplace`);
    }
  } else {
    say("no item offers a download yet; license activation skipped");
  }

  // 6. The dashboard as the customer sees it now.
  items = (await dashboard(customer.token)).items;
  const rows = items.map((item) => [
    item.product_name,
    purchases.get(item.order_id)?.gateway ?? item.payment_gateway,
    item.delivery_model,
    item.status,
    item.external_status ?? "-",
    item.next_action.kind,
  ]);
  say("final dashboard:");
  console.log(table([["PRODUCT", "GATEWAY", "TYPE", "STATUS", "EXTERNAL STATUS", "NEXT ACTION"], ...rows]));
  const notActive = rows.filter((row) => row[3] !== "active");
  if (items.length > 0 && notActive.length === 0) {
    console.log(`\nAll ${items.length} items are active.`);
    return 0;
  }
  console.log(`\nNot active (${notActive.length} of ${items.length}):`);
  for (const row of notActive) console.log(`  ${row[0]} via ${row[1]}: ${row[3]}`);
  return 1;
}

try {
  process.exit(await main());
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  console.error(error instanceof HttpFailure ? message : `demo failed: ${message}`);
  process.exit(1);
}
