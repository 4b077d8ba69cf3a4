import type { ExternalRefs, FulfillmentRepository } from "../../../application/fulfillment/ports.ts";
import type { FulfillmentRecord } from "../../../domain/fulfillment/fulfillment.ts";

type TenantLink = Parameters<FulfillmentRepository["linkTenant"]>[0];

/** External fields are written like the real repository's `coalesce`: null or absent keeps the old value. */
function withExternal(record: FulfillmentRecord, external: Partial<ExternalRefs>): FulfillmentRecord {
  return {
    ...record,
    external_reference_id: external.external_reference_id ?? record.external_reference_id,
    external_workspace_url: external.external_workspace_url ?? record.external_workspace_url,
    external_customer_id: external.external_customer_id ?? record.external_customer_id,
    external_status: external.external_status ?? record.external_status,
  };
}

const newestFirst = (a: FulfillmentRecord, b: FulfillmentRecord) =>
  b.created_at.getTime() - a.created_at.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/**
 * Fulfillment records in memory with the real repository's guards: `transition` only moves a
 * record still in one of its guard's `from`, one record per order item, newest-first pages. `add` seeds a
 * record; `snapshot` lets a fake unit of work roll back.
 */
export function createInMemoryFulfillmentRepository() {
  let records = new Map<string, FulfillmentRecord>();
  const tenantLinks = new Map<string, TenantLink>();
  let sequence = 0;

  function add(overrides: Partial<FulfillmentRecord> = {}): FulfillmentRecord {
    const created = new Date(Date.UTC(2026, 0, 1, 0, 0, sequence++));
    const record: FulfillmentRecord = {
      id: crypto.randomUUID(),
      order_id: crypto.randomUUID(),
      order_item_id: crypto.randomUUID(),
      product_id: crypto.randomUUID(),
      customer_id: crypto.randomUUID(),
      driver: "multitenant_saas",
      status: "queued",
      external_reference_id: null,
      external_workspace_url: null,
      external_customer_id: null,
      external_status: null,
      attempts: 0,
      last_error: null,
      payload_snapshot: {},
      created_at: created,
      updated_at: created,
      ...overrides,
    };
    records.set(record.id, record);
    return record;
  }

  const repository: FulfillmentRepository = {
    find: async (id) => records.get(id),

    async list(filter, page) {
      const matching = [...records.values()]
        .filter(
          (r) =>
            (!filter.status || r.status === filter.status) &&
            (!filter.driver || r.driver === filter.driver) &&
            (!filter.customer_id || r.customer_id === filter.customer_id) &&
            (!filter.order_id || r.order_id === filter.order_id),
        )
        .sort(newestFirst);
      const start = page.cursor ? matching.findIndex((r) => r.id === page.cursor) + 1 : 0;
      const items = matching.slice(start, start + page.limit);
      const last = items.at(-1);
      return { items, next_cursor: matching.length > start + page.limit && last ? last.id : null };
    },

    async createQueued(order, items) {
      const taken = new Set([...records.values()].map((r) => r.order_item_id));
      return items
        .filter((item) => !taken.has(item.id))
        .map((item) =>
          add({
            order_id: order.id,
            order_item_id: item.id,
            product_id: item.product_id,
            customer_id: order.customer_id,
            driver: item.fulfillment_driver,
          }),
        );
    },

    async transition(id, guard, change) {
      const record = records.get(id);
      if (!record || !guard.from.includes(record.status)) return undefined;
      const moved: FulfillmentRecord = {
        ...withExternal(record, change.external ?? {}),
        status: change.status,
        attempts: change.attempts ?? record.attempts,
        last_error: change.last_error === undefined ? record.last_error : change.last_error,
        payload_snapshot: change.snapshot ?? record.payload_snapshot,
        updated_at: new Date(),
      };
      records.set(id, moved);
      return moved;
    },

    async reclaim(id, attempts) {
      const record = records.get(id);
      if (record?.status !== "processing") return undefined;
      const reclaimed: FulfillmentRecord = { ...record, attempts, updated_at: new Date() };
      records.set(id, reclaimed);
      return reclaimed;
    },

    async setExternalStatus(id, state) {
      const record = records.get(id);
      if (record) records.set(id, withExternal(record, state));
    },

    async linkTenant(link) {
      tenantLinks.set(link.fulfillment_record_id, link);
    },
  };

  return {
    ...repository,
    add,
    /** The record as stored now, or a failed test. */
    get(id: string): FulfillmentRecord {
      const record = records.get(id);
      if (!record) throw new Error(`no fulfillment record ${id}`);
      return record;
    },
    tenantLinks,
    snapshot() {
      const saved = new Map(records);
      return () => {
        records = saved;
      };
    },
  };
}

export type InMemoryFulfillmentRepository = ReturnType<typeof createInMemoryFulfillmentRepository>;
