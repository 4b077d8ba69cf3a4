import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { aLicenseProduct } from "../support/builders/products.ts";
import { useTestDatabase } from "../support/database.ts";
import { adminToken, buyAndPay, createProduct, eventually, http, useE2e } from "../support/e2e.ts";
import { useSmtpInbox } from "../support/smtp-inbox.ts";
import { licenseOf } from "../support/subscriptions.ts";
import { verifiedPayload, webhookReceiver } from "../support/webhook-receiver.ts";

const smtp = await useSmtpInbox();
const receiver = webhookReceiver();
afterAll(() => receiver.stop());
const db = useTestDatabase();
const e2e = useE2e(db, {
  env: {
    SMTP_URL: `smtp://shop:smtp-password@127.0.0.1:${smtp.port}`,
    MAIL_FROM: "Example Shop <shop@shop.example>",
    LICENSE_RATE_LIMIT_BURST: "100000",
  },
});
let admin = "";
let webhookSecret = "";
beforeAll(async () => {
  admin = await adminToken(e2e);
  const created = await http(e2e.url, "POST", "/api/admin/webhook-endpoints", {
    token: admin,
    body: { url: receiver.url, events: ["license.suspended", "license.reinstated", "license.reissued"] },
  });
  expect(created.status).toBe(201);
  webhookSecret = created.body.secret;
});

const VERIFY_SUBJECT = "Confirm your email address";

async function aLicense(maxActivations = 3) {
  const product = await createProduct(
    e2e,
    aLicenseProduct({
      default_release_version: "1.0.0",
      fulfillment_config: {
        license_type: "commercial",
        artifact_source: `${e2e.sim.url}/artifacts/app`,
        max_activations: maxActivations,
      },
    }),
  );
  const email = `licensee-${crypto.randomUUID()}@example.com`;
  const registered = await http(e2e.url, "POST", "/api/auth/register", {
    body: { email, password: "customer password", name: "Ada" },
  });
  expect(registered.status).toBe(201);
  const customer = { email, token: registered.body.token as string };
  const { orderId } = await buyAndPay(e2e, customer, [{ product_id: product.id, variant: "regular" }], "gateway_b");
  const { key } = await licenseOf(db, orderId);
  const [row] = await db.current.sql<{ id: string }[]>`select id from licenses where license_key = ${key}`;
  return { customer, key, licenseId: row?.id ?? "", productId: product.id, orderId };
}

const mailsTo = (address: string, subject: string) =>
  eventually(
    async () => {
      const found = smtp.inbox.to(address).filter((mail) => mail.subject.includes(subject));
      return found.length > 0 && found;
    },
    8000,
    `an email "${subject}" to ${address}`,
  );
const adminCall = (method: string, path: string, body?: object) =>
  http(e2e.url, method, path, { token: admin, ...(body ? { body } : {}) });
const validate = async (key: string) =>
  (await http(e2e.url, "POST", "/api/licenses/validate", { body: { license_key: key } })).body;
const activate = (key: string, fingerprint: string) =>
  http(e2e.url, "POST", "/api/licenses/activate", { body: { license_key: key, fingerprint } });
const licenseEvents = (licenseId: string) =>
  receiver.received
    .map((request) => verifiedPayload(webhookSecret, request))
    .filter((event) => event.data.license_id === licenseId)
    .map((event) => event.type);

describe("the customer's license email", () => {
  test("the ready email carries the key and a download link that works", async () => {
    const { customer, key } = await aLicense();
    const [ready] = await mailsTo(customer.email, "license is ready");
    expect(ready?.subject).not.toBe(VERIFY_SUBJECT);
    expect(ready?.text).toContain(key);
    const link = /(http:\/\/\S+\/api\/downloads\/\S+)/.exec(ready?.text ?? "")?.[1];
    expect(link).toBeDefined();
    const download = await fetch(link ?? "");
    expect(download.status).toBe(200);
    await download.arrayBuffer();
    // Sent, the key and the link are erased from the stored email.
    const stored = await eventually(
      async () => {
        const [row] = await db.current.sql<{ state: string; data: Record<string, string> }[]>`
          select state, data from emails where recipient = ${customer.email} and template = 'fulfillment.ready_license'`;
        return row?.state === "sent" && row;
      },
      5000,
      "the email recorded as sent",
    );
    expect(JSON.stringify(stored.data)).not.toContain(key);
  }, 20_000);
});

describe("an admin's licenses", () => {
  test("are found by customer email, product, status and the start of the key, with machines and history", async () => {
    const { customer, key, licenseId, productId } = await aLicense();
    expect((await activate(key, "fp-1")).status).toBe(200);
    for (const query of [
      `customer_email=${encodeURIComponent(customer.email.toUpperCase())}`,
      `product_id=${productId}`,
      `key_prefix=${encodeURIComponent(key.slice(0, 48))}&status=active`,
      `key_prefix=${encodeURIComponent(key.slice(0, 40))}`,
    ]) {
      const listed = await adminCall("GET", `/api/admin/licenses?${query}`);
      expect(listed.status).toBe(200);
      expect(listed.body.items.map((l: { id: string }) => l.id)).toEqual([licenseId]);
    }
    expect((await adminCall("GET", `/api/admin/licenses?product_id=${productId}&status=revoked`)).body.items).toEqual(
      [],
    );
    const details = await adminCall("GET", `/api/admin/licenses/${licenseId}`);
    expect(details.body.license).toMatchObject({ id: licenseId, customer_email: customer.email, activations: 1 });
    expect(details.body.machines.map((m: { fingerprint: string }) => m.fingerprint)).toEqual(["fp-1"]);
    expect(details.body.history.map((e: { kind: string }) => e.kind)).toEqual(["activated", "issued"]);
    expect((await http(e2e.url, "GET", "/api/admin/licenses", { token: customer.token })).status).toBe(403);
    expect((await adminCall("GET", `/api/admin/licenses/${crypto.randomUUID()}`)).status).toBe(404);
    // Query text that reaches SQL: a NUL (refused as malformed before any route), a short key start
    // or an id that is not one is a 4xx, never a 500.
    const statuses = [];
    for (const query of ["customer_email=a%00b%40c", `key_prefix=${"M".repeat(10)}`, "product_id=urn:uuid:0"]) {
      statuses.push((await adminCall("GET", `/api/admin/licenses?${query}`)).status);
    }
    expect(statuses).toEqual([400, 422, 422]);
  });

  test("suspend, reinstate, reset and reissue: validation follows, the customer is emailed, the shop's systems told, the audit log kept", async () => {
    const { customer, key, licenseId } = await aLicense();
    expect((await activate(key, "fp-1")).status).toBe(200);

    const suspended = await adminCall("POST", `/api/admin/licenses/${licenseId}/suspend`);
    expect(suspended.body.license).toMatchObject({ status: "suspended", held: true });
    expect(await validate(key)).toMatchObject({ valid: false, code: "LICENSE_SUSPENDED" });
    await mailsTo(customer.email, "license is suspended");

    const reinstated = await adminCall("POST", `/api/admin/licenses/${licenseId}/reinstate`);
    expect(reinstated.body.license).toMatchObject({ status: "active", held: false });
    expect(await validate(key)).toMatchObject({ valid: true, code: null });
    const twice = await adminCall("POST", `/api/admin/licenses/${licenseId}/reinstate`);
    expect(twice).toMatchObject({ status: 409, body: { code: "LICENSE_NOT_SUSPENDED" } });

    const perpetual = await adminCall("POST", `/api/admin/licenses/${licenseId}/extend`, { days: 30 });
    expect(perpetual).toMatchObject({ status: 409, body: { code: "LICENSE_PERPETUAL" } });

    const reset = await adminCall("POST", `/api/admin/licenses/${licenseId}/reset-machines`);
    expect(reset.body.machines).toEqual([]);

    const reissued = await adminCall("POST", `/api/admin/licenses/${licenseId}/reissue`);
    const newKey = reissued.body.license_key as string;
    expect(reissued.body.license.key_hint).toBe(`…${newKey.slice(-12)}`);
    expect(newKey).not.toBe(key);
    expect(await validate(key)).toMatchObject({ valid: false, code: "LICENSE_REPLACED" });
    expect(await activate(key, "fp-2")).toMatchObject({ status: 409, body: { code: "LICENSE_REPLACED" } });
    expect(await validate(newKey)).toMatchObject({ valid: true, license_id: licenseId });
    const [mail] = await mailsTo(customer.email, "new");
    expect(mail?.text).toContain(newKey);
    const mine = await http(e2e.url, "GET", "/api/licenses", { token: customer.token });
    expect(mine.body.items.map((l: { license_key: string }) => l.license_key)).toEqual([newKey]);

    await eventually(async () => licenseEvents(licenseId).length >= 3, 5000, "three license webhooks");
    expect(licenseEvents(licenseId).sort()).toEqual(["license.reinstated", "license.reissued", "license.suspended"]);
    expect(JSON.stringify(receiver.received.map((r) => r.body))).not.toContain(newKey);
    const audit = await adminCall("GET", `/api/admin/audit-log?target_id=${licenseId}`);
    expect(audit.body.items.map((entry: { action: string }) => entry.action).sort()).toEqual([
      "license.reinstate",
      "license.reissue",
      "license.reset_machines",
      "license.suspend",
    ]);
  }, 30_000);

  test("a reissue racing activations with the old key: each activation is either in before it or refused, never half", async () => {
    const { key, licenseId } = await aLicense(100);
    const activations = Array.from({ length: 40 }, (_, i) => activate(key, `fp-${i}`));
    const reissue = adminCall("POST", `/api/admin/licenses/${licenseId}/reissue`);
    const answers = await Promise.all(activations);
    expect((await reissue).status).toBe(200);
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.every((status) => status === 200 || status === 409)).toBe(true);
    for (const refused of answers.filter((answer) => answer.status === 409)) {
      expect(refused.body.code).toBe("LICENSE_REPLACED");
    }
    const [count] = await db.current.sql<{ n: number }[]>`
      select count(*)::int as n from license_activations where license_id = ${licenseId}`;
    expect(count?.n).toBe(statuses.filter((status) => status === 200).length);
    expect(await activate(key, "fp-late")).toMatchObject({ status: 409, body: { code: "LICENSE_REPLACED" } });
  });
});
