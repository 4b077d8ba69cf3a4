import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestMarketplace } from "../../support/app.ts";
import { tokenFor } from "../../support/auth.ts";
import { useTestDatabase } from "../../support/database.ts";
import { call, expectProblemShape } from "../../support/http.ts";

const db = useTestDatabase();
let open: ReturnType<typeof createTestMarketplace>;
let guarded: ReturnType<typeof createTestMarketplace>;
let admin = "";
let adminId = "";

/** An IP literal outside every special block: the guard accepts it without resolving anything. */
const PUBLIC_URL = "https://93.184.215.14/hooks";
const UNKNOWN = "00000000-0000-4000-8000-00000000beef";

beforeAll(async () => {
  open = createTestMarketplace(db.current.sql);
  // Provider and gateway addresses may be private here (as under `npm start`); webhooks keep their own switch.
  guarded = createTestMarketplace(
    db.current.sql,
    {},
    { env: { ALLOW_PRIVATE_PROVIDER_URLS: "true", ALLOW_PRIVATE_WEBHOOK_URLS: "false" } },
  );
  adminId = crypto.randomUUID();
  admin = await tokenFor("admin", adminId);
});

afterAll(async () => {
  await open.close();
  await guarded.close();
});

const create = (body: unknown, app = open) =>
  call(app.app, "POST", "/api/admin/webhook-endpoints", { token: admin, body });

const auditOf = async (targetId: string) => [
  ...(await db.current.sql<
    { actor_id: string; action: string; target_type: string; summary: Record<string, unknown> }[]
  >`
    select actor_id, action, target_type, summary from audit_log where target_id = ${targetId} order by id`),
];

describe("webhook endpoints: admin API", () => {
  test("created with its secret shown once; listed and read without it; stored sealed; audited", async () => {
    const created = await create({ url: PUBLIC_URL, events: ["order.paid", "fulfillment.ready"], description: "CRM" });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      url: PUBLIC_URL,
      events: ["order.paid", "fulfillment.ready"],
      description: "CRM",
      previous_secret_expires_at: null,
    });
    const { id, secret } = created.body as { id: string; secret: string };
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
    expect(Buffer.from(secret.slice(6), "base64").length).toBeGreaterThanOrEqual(24);

    const listed = await call(open.app, "GET", "/api/admin/webhook-endpoints", { token: admin });
    const read = await call(open.app, "GET", `/api/admin/webhook-endpoints/${id}`, { token: admin });
    expect(listed.body.items).toContainEqual(expect.objectContaining({ id, url: PUBLIC_URL }));
    expect(read.body).toMatchObject({ id, url: PUBLIC_URL, events: ["order.paid", "fulfillment.ready"] });
    for (const answer of [listed, read]) {
      expect(JSON.stringify(answer.body)).not.toContain(secret.slice(6, 30));
      expect(JSON.stringify(answer.body)).not.toContain('secret":');
    }
    const [row] = await db.current.sql<{ secret_ciphertext: Uint8Array }[]>`
      select secret_ciphertext from webhook_endpoints where id = ${id}`;
    expect(Buffer.from(row?.secret_ciphertext ?? []).toString("latin1")).not.toContain(secret.slice(6, 20));

    expect(await auditOf(id)).toEqual([
      {
        actor_id: adminId,
        action: "webhook_endpoint.create",
        target_type: "webhook_endpoint",
        summary: { url: PUBLIC_URL, events: ["order.paid", "fulfillment.ready"], description: "CRM" },
      },
    ]);
  });

  test("changed, re-keyed and removed, each audited without a secret", async () => {
    const { id, secret } = (await create({ url: PUBLIC_URL, events: ["order.paid"] })).body;
    const patched = await call(open.app, "PATCH", `/api/admin/webhook-endpoints/${id}`, {
      token: admin,
      body: { url: "https://93.184.215.15/v2", events: ["order.refunded", "order.refunded"], description: "ERP" },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      url: "https://93.184.215.15/v2",
      events: ["order.refunded"],
      description: "ERP",
    });

    const before = Date.now();
    const rotated = await call(open.app, "POST", `/api/admin/webhook-endpoints/${id}/rotate-secret`, { token: admin });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(secret);
    const until = Date.parse(rotated.body.previous_secret_expires_at);
    expect(until - before).toBeGreaterThan(24 * 3_600_000 - 5_000);
    expect(until - before).toBeLessThan(24 * 3_600_000 + 5_000);

    const removed = await call(open.app, "DELETE", `/api/admin/webhook-endpoints/${id}`, { token: admin });
    expect(removed.status).toBe(204);
    expectProblemShape(
      await call(open.app, "GET", `/api/admin/webhook-endpoints/${id}`, { token: admin }),
      404,
      "WEBHOOK_ENDPOINT_NOT_FOUND",
    );

    const audit = await auditOf(id);
    expect(audit.map((entry) => entry.action)).toEqual([
      "webhook_endpoint.create",
      "webhook_endpoint.update",
      "webhook_endpoint.rotate_secret",
      "webhook_endpoint.delete",
    ]);
    expect(audit[1]?.summary).toEqual({
      url: { from: PUBLIC_URL, to: "https://93.184.215.15/v2" },
      events: { from: ["order.paid"], to: ["order.refunded"] },
      description: { from: null, to: "ERP" },
    });
    const trail = JSON.stringify(audit);
    for (const key of [secret, rotated.body.secret]) expect(trail).not.toContain(key.slice(6, 20));
  });

  test("events must be a non-empty list of known event types, the URL http(s)", async () => {
    for (const body of [
      { url: PUBLIC_URL, events: [] },
      { url: PUBLIC_URL, events: ["order.shipped"] },
      { url: PUBLIC_URL },
    ]) {
      expectProblemShape(await create(body), 422, "VALIDATION_FAILED");
    }
    const chosen = await create({ url: PUBLIC_URL, events: ["order.paid"], secret: "whsec_chosen_by_the_client" });
    expect(chosen.body.secret).not.toBe("whsec_chosen_by_the_client");
    for (const url of ["ftp://93.184.215.14/hooks", "https://user:pw@93.184.215.14/", "not a url"]) {
      const refused = await create({ url, events: ["order.paid"] });
      expectProblemShape(refused, 422, "VALIDATION_FAILED");
      expect(refused.body.errors).toEqual([expect.objectContaining({ path: "/url", code: "INVALID_URL" })]);
    }
    const { id } = (await create({ url: PUBLIC_URL, events: ["order.paid"] })).body;
    const emptied = await call(open.app, "PATCH", `/api/admin/webhook-endpoints/${id}`, {
      token: admin,
      body: { events: [] },
    });
    expectProblemShape(emptied, 422, "VALIDATION_FAILED");
  });

  test("a private, loopback or metadata address is refused at create and at update", async () => {
    const { id } = (await create({ url: PUBLIC_URL, events: ["order.paid"] }, guarded)).body;
    for (const url of [
      "http://127.0.0.1:8080/hooks",
      "http://localhost/hooks",
      "http://10.1.2.3/hooks",
      "http://169.254.169.254/latest/meta-data",
      "http://[::1]/hooks",
    ]) {
      const created = await create({ url, events: ["order.paid"] }, guarded);
      expectProblemShape(created, 422, "URL_NOT_ALLOWED");
      expect(created.body.errors).toEqual([expect.objectContaining({ path: "/url", code: "URL_NOT_ALLOWED" })]);
      const patched = await call(guarded.app, "PATCH", `/api/admin/webhook-endpoints/${id}`, {
        token: admin,
        body: { url },
      });
      expectProblemShape(patched, 422, "URL_NOT_ALLOWED");
    }
    const kept = await call(guarded.app, "GET", `/api/admin/webhook-endpoints/${id}`, { token: admin });
    expect(kept.body.url).toBe(PUBLIC_URL);
  });

  test("ALLOW_PRIVATE_WEBHOOK_URLS=true lets an endpoint live on loopback, a development receiver", async () => {
    const created = await create({ url: "http://127.0.0.1:8080/hooks", events: ["order.paid"] }, open);
    expect(created.status).toBe(201);
  });

  test("unknown ids are 404 problems on every route", async () => {
    const base = `/api/admin/webhook-endpoints/${UNKNOWN}`;
    for (const [method, path, body] of [
      ["GET", base, undefined],
      ["PATCH", base, { description: "x" }],
      ["DELETE", base, undefined],
      ["POST", `${base}/rotate-secret`, undefined],
      ["GET", `${base}/deliveries`, undefined],
      ["POST", `${base}/deliveries/${UNKNOWN}/redeliver`, undefined],
      ["GET", "/api/admin/webhook-endpoints/not-a-uuid", undefined],
    ] as const) {
      expectProblemShape(await call(open.app, method, path, { token: admin, body }), 404, "WEBHOOK_ENDPOINT_NOT_FOUND");
    }
    const { id } = (await create({ url: PUBLIC_URL, events: ["order.paid"] })).body;
    expectProblemShape(
      await call(open.app, "POST", `/api/admin/webhook-endpoints/${id}/deliveries/${UNKNOWN}/redeliver`, {
        token: admin,
      }),
      404,
      "WEBHOOK_DELIVERY_NOT_FOUND",
    );
  });

  test("listed newest first, page by page; a forged cursor is a 422", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await create({ url: PUBLIC_URL, events: ["order.paid"] })).body.id);
    // Creation times a second apart, so the order does not hang on the wall clock between requests.
    for (const [i, id] of ids.entries()) {
      await db.current
        .sql`update webhook_endpoints set created_at = now() + ${i} * interval '1 second' where id = ${id}`;
    }
    const first = await call(open.app, "GET", "/api/admin/webhook-endpoints?limit=2", { token: admin });
    expect(first.body.items.map((item: { id: string }) => item.id)).toEqual([ids[2], ids[1]]);
    const second = await call(
      open.app,
      "GET",
      `/api/admin/webhook-endpoints?limit=2&cursor=${first.body.next_cursor}`,
      { token: admin },
    );
    expect(second.body.items[0].id).toBe(ids[0]);
    const forged = Buffer.from(JSON.stringify(["yesterday", "x"])).toString("base64url");
    for (const cursor of [forged, "%%%"]) {
      expectProblemShape(
        await call(open.app, "GET", `/api/admin/webhook-endpoints?cursor=${cursor}`, { token: admin }),
        422,
        "VALIDATION_FAILED",
      );
    }
  });

  test("admins only", async () => {
    const customer = await tokenFor("customer");
    expectProblemShape(
      await call(open.app, "POST", "/api/admin/webhook-endpoints", {
        token: customer,
        body: { url: PUBLIC_URL, events: ["order.paid"] },
      }),
      403,
      "FORBIDDEN_ROLE",
    );
    const anonymous = await call(open.app, "GET", "/api/admin/webhook-endpoints");
    expect(anonymous.status).toBe(401);
  });
});
