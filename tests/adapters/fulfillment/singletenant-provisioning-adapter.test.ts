import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createSingletenantProvisioningAdapter } from "../../../adapters/fulfillment/singletenant-provisioning-adapter.ts";
import { createPostgresInstallationRepository } from "../../../adapters/postgres/installation-repository.ts";
import { createPostgresOpsTaskRepository } from "../../../adapters/postgres/ops-task-repository.ts";
import { connectToAnyAddress } from "../../../adapters/security/guarded-fetch.ts";
import type { FulfillmentContext } from "../../../application/fulfillment/ports.ts";
import { UpstreamBadResponse, UpstreamError } from "../../../application/shared/errors.ts";
import { InstallationDomainTaken } from "../../../domain/fulfillment/errors.ts";
import { ValidationFailed } from "../../../domain/shared/errors.ts";
import { aFulfillmentContext, aSingletenantProduct, withRecord } from "../../support/builders/fulfillment.ts";
import { useTestDatabase } from "../../support/database.ts";

const db = useTestDatabase();
const now = new Date("2026-01-15T09:30:00.000Z");
const installations = () => createPostgresInstallationRepository(db.current.sql);
const tasks = () => createPostgresOpsTaskRepository(db.current.sql);
const adapter = (installDomain?: string) =>
  createSingletenantProvisioningAdapter({
    installations: installations(),
    tasks: tasks(),
    clock: () => now,
    outbound: connectToAnyAddress,
    ...(installDomain ? { installDomain } : {}),
  });

/** A provisioner endpoint: answers per path, remembers what it was asked. */
const received: { path: string; body: unknown }[] = [];
let provisioner: ReturnType<typeof Bun.serve>;
beforeAll(() => {
  provisioner = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      const path = new URL(request.url).pathname;
      received.push({ path, body: await request.json() });
      if (path === "/ok") return Response.json({ url: "https://acme.installs.example.com" });
      if (path === "/no-url") return Response.json({ status: "queued" });
      return Response.json({ code: "BOOM" }, { status: 500 });
    },
  });
});
afterAll(() => provisioner.stop(true));
const provisionerUrl = (path: string) => `http://127.0.0.1:${provisioner.port}${path}`;

const aContext = (
  config: Record<string, unknown> = {},
  extra: { options?: Record<string, string>; customerInput?: Record<string, string> } = {},
) =>
  aFulfillmentContext(db.current.sql, {
    product: aSingletenantProduct(config),
    ...(extra.options ? { item: { options: extra.options } } : {}),
    customerInput: extra.customerInput ?? null,
  });

const installationOf = async (context: FulfillmentContext) => installations().findForRecord(context.record.id);
const tasksOf = (context: FulfillmentContext) =>
  db.current
    .sql`select id, kind, queue_id, instructions, due_at, status from ops_tasks where fulfillment_record_id = ${context.record.id}`;

describe("single-tenant provisioning adapter", () => {
  test("customer_domain without a domain waits for the customer", async () => {
    const context = await aContext();
    const outcome = await adapter().fulfill(context);
    const installation = await installationOf(context);
    expect(outcome).toEqual({
      status: "awaiting_customer",
      reason: "a domain is needed",
      snapshot: { installation: { id: installation?.id } },
    });
    expect(installation).toMatchObject({
      status: "awaiting_domain",
      domain: null,
      domain_strategy: "customer_domain",
      server_profile: "vm-small",
      resource_limits_profile: "limits-standard",
      customer_id: context.customer.id,
      product_id: context.product.id,
    });
    expect(await tasksOf(context)).toHaveLength(0);
  });

  test("the customer's domain resumes it: one provisioning task for ops, installation provisioning", async () => {
    const waiting = await aContext();
    await adapter().fulfill(waiting);
    const context = { ...waiting, customerInput: { domain: "shop.acme.com" } };
    const outcome = await adapter().fulfill(context);
    expect(await adapter().fulfill(context)).toEqual(outcome);

    const installation = await installationOf(context);
    expect(installation).toMatchObject({ status: "provisioning", domain: "shop.acme.com" });
    const opened = await tasksOf(context);
    expect(opened).toHaveLength(1);
    expect(opened[0]).toMatchObject({
      kind: "provisioning",
      queue_id: "provisioning",
      status: "open",
      due_at: new Date("2026-01-16T09:30:00.000Z"),
    });
    for (const fact of ["shop.acme.com", "vm-small", "limits-standard", installation?.id ?? "?", context.order.id]) {
      expect(opened[0]?.instructions).toContain(fact);
    }
    expect(outcome).toEqual({
      status: "manual_pending",
      external_reference_id: installation?.id,
      external_status: "provisioning",
      snapshot: { installation: { id: installation?.id, domain: "shop.acme.com" }, ops_task: { id: opened[0]?.id } },
    });
  });

  test("the task's instructions keep a customer's name on its line, whatever it holds", async () => {
    const base = await aContext({}, { customerInput: { domain: "lines.acme.com" } });
    const context = { ...base, customer: { ...base.customer, name: "Eve\nDomain: victim.example" } };
    await adapter().fulfill(context);
    const [task] = await tasksOf(context);
    const lines = String(task?.instructions).split("\n");
    expect(lines.filter((line) => line.startsWith("Domain:"))).toEqual(["Domain: lines.acme.com"]);
    expect(lines[0]).toContain("Eve\\u{a}Domain: victim.example");
  });

  test("a domain given at checkout is used directly; an unusable one waits for the customer", async () => {
    const context = await aContext({}, { options: { domain: " Shop.Example.ORG " } });
    expect(await adapter().fulfill(context)).toMatchObject({ status: "manual_pending" });
    expect((await installationOf(context))?.domain).toBe("shop.example.org");

    const bad = await aContext({}, { options: { domain: "not a domain" } });
    expect(await adapter().fulfill(bad)).toMatchObject({
      status: "awaiting_customer",
      reason: "the domain given at checkout is not a domain name; a domain is needed",
    });
  });

  test("the subdomain strategy assigns <slug>-<record id prefix>.<install domain>", async () => {
    const context = await aContext({ domain_strategy: "subdomain" });
    expect(await adapter().fulfill(context)).toMatchObject({ status: "manual_pending" });
    const expected = `${context.product.slug}-${context.record.id.slice(0, 8)}.installs.localhost`;
    expect((await installationOf(context))?.domain).toBe(expected);

    const custom = await aContext({ domain_strategy: "subdomain" });
    await adapter("apps.example.net").fulfill(custom);
    expect((await installationOf(custom))?.domain).toEndWith(".apps.example.net");
  });

  test("a provisioner endpoint completes the installation at once", async () => {
    const context = await aContext({ domain_strategy: "subdomain", provisioner_url: provisionerUrl("/ok") });
    const outcome = await adapter().fulfill(context);
    const installation = await installationOf(context);
    expect(installation).toMatchObject({ status: "active", url: "https://acme.installs.example.com" });
    expect(outcome).toEqual({
      status: "active",
      external_reference_id: installation?.id,
      external_workspace_url: "https://acme.installs.example.com",
      external_status: "active",
      snapshot: { installation: { id: installation?.id, domain: installation?.domain } },
    });
    expect(received.at(-1)).toEqual({
      path: "/ok",
      body: {
        installation_id: installation?.id,
        domain: installation?.domain,
        server_profile: "vm-small",
        resource_limits_profile: "limits-standard",
      },
    });
    expect(await tasksOf(context)).toHaveLength(0);

    const calls = received.length;
    expect(await adapter().fulfill(context)).toEqual(outcome);
    expect(received).toHaveLength(calls);
  });

  test("a failing provisioner throws a transient upstream error and leaves the installation provisioning", async () => {
    const context = await aContext({ domain_strategy: "subdomain", provisioner_url: provisionerUrl("/fail") });
    const error = await adapter()
      .fulfill(context)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({ transient: true, code: "PROVIDER_SERVER_ERROR" });
    expect((await installationOf(context))?.status).toBe("provisioning");

    const noUrl = await aContext({ domain_strategy: "subdomain", provisioner_url: provisionerUrl("/no-url") });
    await expect(adapter().fulfill(noUrl)).rejects.toBeInstanceOf(UpstreamBadResponse);
  });

  test("ops complete the task with the URL; anything but an http(s) URL is refused at /url", async () => {
    const pending = await aContext({}, { customerInput: { domain: "store.acme.com" } });
    const outcome = await adapter().fulfill(pending);
    if (outcome.status !== "manual_pending") throw new Error("expected a provisioning task");
    const context = withRecord(pending, { external_reference_id: outcome.external_reference_id ?? null });
    const open = await tasks().find(((outcome.snapshot?.ops_task ?? {}) as { id?: string }).id ?? "");
    if (!open) throw new Error("no open task");
    const complete = adapter().completeTask;
    if (!complete) throw new Error("the provisioning adapter completes tasks");

    for (const url of ["store.acme.com", "ftp://store.acme.com", undefined]) {
      const error = await complete(context, open, { url }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationFailed);
      expect((error as ValidationFailed).errors).toEqual([
        { path: "/url", code: "INVALID_URL", message: expect.any(String) },
      ]);
    }
    expect((await installationOf(context))?.status).toBe("provisioning");

    const installation = await installationOf(context);
    expect(await complete(context, open, { url: "https://store.acme.com" })).toEqual({
      external_reference_id: installation?.id ?? "",
      external_workspace_url: "https://store.acme.com",
      external_status: "active",
    });
    expect(await installationOf(context)).toMatchObject({ status: "active", url: "https://store.acme.com" });
    expect(await adapter().syncStatus(context)).toEqual({
      external_status: "active",
      external_workspace_url: "https://store.acme.com",
    });
  });

  test("suspend and resume the installation; cancel ends it and its open task", async () => {
    const active = await aContext({ domain_strategy: "subdomain", provisioner_url: provisionerUrl("/ok") });
    await adapter().fulfill(active);
    const url = "https://acme.installs.example.com";
    expect(await adapter().suspend(active, "lapsed")).toEqual({
      external_status: "suspended",
      external_workspace_url: url,
    });
    expect(await adapter().resume?.(active)).toEqual({ external_status: "active", external_workspace_url: url });
    expect(await adapter().cancel(active, "refunded")).toEqual({
      external_status: "cancelled",
      external_workspace_url: url,
    });
    expect((await installationOf(active))?.status).toBe("cancelled");

    const pending = await aContext({ domain_strategy: "subdomain" });
    await adapter().fulfill(pending);
    expect(await adapter().cancel(pending, "refunded")).toMatchObject({ external_status: "cancelled" });
    expect((await tasksOf(pending)).map((t) => t.status)).toEqual(["cancelled"]);
    expect((await installationOf(pending))?.status).toBe("cancelled");

    const nothing = await aContext();
    expect(await adapter().cancel(nothing, "refunded")).toEqual({ external_status: "cancelled" });
  });
});

describe("a customer's domain", () => {
  const check = (context: FulfillmentContext, domain: string, platformDomains: string[] = []) => {
    const guarded = createSingletenantProvisioningAdapter({
      installations: installations(),
      tasks: tasks(),
      clock: () => now,
      outbound: connectToAnyAddress,
      installDomain: "installs.example.net",
      platformDomains,
    });
    return guarded.acceptCustomerInput?.(context, { domain }).then(
      () => "accepted",
      (error: unknown) =>
        error instanceof ValidationFailed ? error.errors?.[0]?.code : (error as { code?: string }).code,
    );
  };

  test("is never the platform's install domain, a name under it, or its public host", async () => {
    const waiting = await aContext();
    expect(await check(waiting, "installs.example.net")).toBe("DOMAIN_RESERVED");
    expect(await check(waiting, "acme-1234abcd.installs.example.net")).toBe("DOMAIN_RESERVED");
    expect(await check(waiting, "a.b.installs.example.net")).toBe("DOMAIN_RESERVED");
    expect(await check(waiting, "shop.example.com", ["example.com"])).toBe("DOMAIN_RESERVED");
    expect(await check(waiting, "notinstalls.example.net")).toBe("accepted");
    expect(await check(waiting, "installs.example.net.evil.com")).toBe("accepted");
  });

  test("is refused while another live installation has it, and free again once that one is cancelled", async () => {
    const first = await aContext({}, { customerInput: { domain: "claimed.acme.com" } });
    expect(await adapter().fulfill(first)).toMatchObject({ status: "manual_pending" });
    const second = await aContext();
    await adapter().fulfill(second);
    expect(await check(second, "claimed.acme.com")).toBe("DOMAIN_TAKEN");
    // The installation's own domain is not "taken" from itself (a repeated submission).
    expect(await check(first, "claimed.acme.com")).toBe("accepted");
    await adapter().cancel(first, "refunded");
    expect(await check(second, "claimed.acme.com")).toBe("accepted");
    expect((await installationOf(second))?.domain).toBe("claimed.acme.com");
  });

  test("two customers naming one domain at once: the first claim wins, the other is DOMAIN_TAKEN", async () => {
    const [a, b] = await Promise.all([aContext(), aContext()]);
    await Promise.all([adapter().fulfill(a), adapter().fulfill(b)]);
    const answers = await Promise.all([check(a, "both.acme.com"), check(b, "both.acme.com")]);
    expect(answers.sort()).toEqual(["DOMAIN_TAKEN", "accepted"]);
  });

  test("two items racing for one domain: the database lets one through, the other waits again", async () => {
    const [a, b] = await Promise.all([aContext(), aContext()]);
    await Promise.all([adapter().fulfill(a), adapter().fulfill(b)]);
    const outcomes = await Promise.all(
      [a, b].map((waiting) => adapter().fulfill({ ...waiting, customerInput: { domain: "race.acme.com" } })),
    );
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(["awaiting_customer", "manual_pending"]);
    const loser = outcomes.find((outcome) => outcome.status === "awaiting_customer");
    expect(loser).toMatchObject({ reason: expect.stringContaining("race.acme.com is already used") });
    const [live] = await db.current.sql<{ n: number }[]>`
      select count(*)::int as n from installations where domain = 'race.acme.com' and status <> 'cancelled'`;
    expect(live?.n).toBe(1);
    const [open] = await db.current.sql<{ n: number }[]>`
      select count(*)::int as n from ops_tasks
      where status = 'open' and fulfillment_record_id in (${a.record.id}, ${b.record.id})`;
    expect(open?.n).toBe(1);
  });

  test("the repository refuses a second live installation of a domain, whatever the case", async () => {
    const first = await aContext({}, { customerInput: { domain: "case.acme.com" } });
    await adapter().fulfill(first);
    const other = await aContext();
    const refused = await installations()
      .upsert({
        fulfillment_record_id: other.record.id,
        customer_id: other.record.customer_id,
        product_id: other.product.id,
        server_profile: "vm-small",
        resource_limits_profile: "limits-standard",
        domain_strategy: "customer_domain",
        domain: "CASE.acme.com",
        status: "provisioning",
      })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(InstallationDomainTaken);
  });

  test("a domain given at checkout under the install domain waits for another one", async () => {
    const context = await aContext({}, { options: { domain: "mine.installs.localhost" } });
    expect(await adapter().fulfill(context)).toMatchObject({
      status: "awaiting_customer",
      reason: "the domain given is the platform's own; another domain is needed",
    });
    expect((await installationOf(context))?.domain).toBeNull();
  });
});
