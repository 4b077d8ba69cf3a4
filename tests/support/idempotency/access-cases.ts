import { registerCustomer } from "../e2e.ts";
import { audited, counted, suffix } from "./admin-cases.ts";
import type { Case, Fixtures } from "./fixtures.ts";

const discount = (f: Fixtures, token: string) =>
  f.as("POST", "/api/admin/discounts", token, {
    code: `IDEM${suffix().toUpperCase()}`,
    type: "percent",
    amount: 10,
    duration: "once",
  }) as Promise<{ id: string; code: string }>;

const endpoint = (f: Fixtures, token: string) =>
  f.as("POST", "/api/admin/webhook-endpoints", token, {
    url: `${f.e2e.sim.url}/hooks/${suffix()}`,
    events: ["order.paid"],
  }) as Promise<{ id: string }>;

const endpointRows = (f: Fixtures, id: string) =>
  f.one(f.sql()<{ n: number }[]>`select count(*)::int n from webhook_endpoints where id = ${id}`);

/** The admin routes of discounts, accounts, API keys and webhook endpoints. */
export const ACCESS_CASES: Readonly<Record<string, Case>> = {
  "POST /api/admin/discounts": counted(async (f) => {
    const code = `IDEM${suffix().toUpperCase()}`;
    return {
      path: "/api/admin/discounts",
      body: { code, type: "fixed", amount: 500, duration: "once" },
      count: () => f.one(f.sql()<{ n: number }[]>`select count(*)::int n from discounts where code = ${code}`),
    };
  }),
  "PATCH /api/admin/discounts/{id}": counted(async (f, admin) => {
    const { id } = await discount(f, admin.token);
    return {
      path: `/api/admin/discounts/${id}`,
      body: { max_redemptions: 50 },
      count: () =>
        f.one(
          f.sql()<{ n: number }[]>`select count(*)::int n from discounts where id = ${id} and max_redemptions = 50`,
        ),
    };
  }),
  "POST /api/admin/discounts/{id}/disable": counted(async (f, admin) => {
    const { id } = await discount(f, admin.token);
    return {
      path: `/api/admin/discounts/${id}/disable`,
      count: () =>
        f.one(
          f.sql()<{ n: number }[]>`select count(*)::int n from discounts where id = ${id} and disabled_at is not null`,
        ),
    };
  }),
  "PATCH /api/admin/users/{id}": audited(async (f) => {
    const customer = await registerCustomer(f.e2e);
    return { path: `/api/admin/users/${customer.id}`, body: { disabled: true } };
  }),
  "POST /api/admin/api-keys": counted(async (f) => {
    const name = `idem-${suffix()}`;
    return {
      path: "/api/admin/api-keys",
      body: { name, scopes: ["orders:read"] },
      count: () => f.one(f.sql()<{ n: number }[]>`select count(*)::int n from api_keys where name = ${name}`),
    };
  }),
  "DELETE /api/admin/api-keys/{id}": counted(async (f, admin) => {
    const { id } = (await f.as("POST", "/api/admin/api-keys", admin.token, {
      name: `idem-${suffix()}`,
      scopes: ["orders:read"],
    })) as { id: string };
    return {
      path: `/api/admin/api-keys/${id}`,
      count: () =>
        f.one(
          f.sql()<{ n: number }[]>`select count(*)::int n from api_keys where id = ${id} and revoked_at is not null`,
        ),
    };
  }),
  "POST /api/admin/webhook-endpoints": counted(async (f) => {
    const url = `${f.e2e.sim.url}/hooks/${suffix()}`;
    return {
      path: "/api/admin/webhook-endpoints",
      body: { url, events: ["order.paid"] },
      count: () => f.one(f.sql()<{ n: number }[]>`select count(*)::int n from webhook_endpoints where url = ${url}`),
    };
  }),
  "PATCH /api/admin/webhook-endpoints/{id}": counted(async (f, admin) => {
    const { id } = await endpoint(f, admin.token);
    const description = `patched ${suffix()}`;
    return {
      path: `/api/admin/webhook-endpoints/${id}`,
      body: { description },
      count: () =>
        f.one(f.sql()<{ n: number }[]>`
          select count(*)::int n from webhook_endpoints where id = ${id} and description = ${description}`),
    };
  }),
  "DELETE /api/admin/webhook-endpoints/{id}": counted(async (f, admin) => {
    const { id } = await endpoint(f, admin.token);
    return { path: `/api/admin/webhook-endpoints/${id}`, count: async () => 1 - (await endpointRows(f, id)) };
  }),
  "POST /api/admin/webhook-endpoints/{id}/rotate-secret": counted(async (f, admin) => {
    const { id } = await endpoint(f, admin.token);
    const secrets = () =>
      f.sql()<{ s: string }[]>`select encode(secret_ciphertext, 'hex') s from webhook_endpoints where id = ${id}`;
    const first = (await secrets())[0]?.s;
    return {
      path: `/api/admin/webhook-endpoints/${id}/rotate-secret`,
      count: async () => ((await secrets())[0]?.s === first ? 0 : 1),
    };
  }),
  "POST /api/admin/webhook-endpoints/{id}/deliveries/{delivery_id}/redeliver": counted(async (f, admin) => {
    const { id } = await endpoint(f, admin.token);
    const [event] = await f.sql()<{ id: string }[]>`
      insert into outgoing_events (type, data) values ('order.paid', '{}') returning id`;
    const [delivery] = await f.sql()<{ id: string }[]>`
      insert into webhook_deliveries (endpoint_id, event_id, event_type, state)
      values (${id}, ${event?.id ?? ""}, 'order.paid', 'dead') returning id`;
    return {
      path: `/api/admin/webhook-endpoints/${id}/deliveries/${delivery?.id}/redeliver`,
      count: () =>
        f.one(f.sql()<{ n: number }[]>`select redeliveries n from webhook_deliveries where id = ${delivery?.id ?? ""}`),
    };
  }),
  "POST /api/admin/webhook-endpoints/{id}/replay": counted(async (f, admin) => {
    // A window that ended before the test's events were made: the replay has nothing to send and
    // completes at once, so no replay job outlives the case.
    const { id } = await endpoint(f, admin.token);
    const hour = 3_600_000;
    return {
      path: `/api/admin/webhook-endpoints/${id}/replay`,
      body: {
        since: new Date(Date.now() - 2 * hour).toISOString(),
        until: new Date(Date.now() - hour).toISOString(),
      },
      count: () =>
        f.one(f.sql()<{ n: number }[]>`select count(*)::int n from webhook_replays where endpoint_id = ${id}`),
    };
  }),
  "POST /api/admin/webhook-endpoints/{id}/replays/{replay_id}/cancel": counted(async (f, admin) => {
    // A replay left running (as one whose step job died would be): cancelling it is the effect.
    const { id } = await endpoint(f, admin.token);
    const [replay] = await f.sql()<{ id: string }[]>`
      insert into webhook_replays (endpoint_id, since, until, only_failed, total)
      values (${id}, now() - interval '2 hours', now() - interval '1 hour', false, 0) returning id`;
    return {
      path: `/api/admin/webhook-endpoints/${id}/replays/${replay?.id}/cancel`,
      count: () =>
        f.one(
          f.sql()<{ n: number }[]>`
            select count(*)::int n from webhook_replays where id = ${replay?.id ?? ""} and status = 'cancelled'`,
        ),
    };
  }),
};
