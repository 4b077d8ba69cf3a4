import type { FulfillmentDriver } from "../../domain/catalog/drivers.ts";
import type { Product } from "../../domain/catalog/product.ts";
import type { FulfillmentRecord, FulfillmentStatus } from "../../domain/fulfillment/fulfillment.ts";
import type { StatusGuard } from "../../domain/fulfillment/status-guards.ts";
import type { Order, OrderItem } from "../../domain/orders/order.ts";
import type { Payment } from "../../domain/payments/payment.ts";
import type { Page, PageRequest } from "../shared/ports.ts";
import type { SubscriptionRecord } from "./subscription-ports.ts";

export type { SubscriptionChange, SubscriptionRecord, SubscriptionRepository } from "./subscription-ports.ts";

export interface Customer {
  readonly id: string;
  readonly email: string;
  readonly name: string;
  /** Whether the customer proved the address receives mail; see `REQUIRE_VERIFIED_EMAIL_FOR_DELIVERY`. */
  readonly emailVerified: boolean;
}

/** Everything an adapter needs to deliver one order item: the order, the item and what paid for it, loaded once. */
export interface FulfillmentContext {
  readonly record: FulfillmentRecord;
  readonly order: Order;
  readonly item: OrderItem;
  readonly product: Product;
  readonly customer: Customer;
  readonly payment: Payment | null;
  readonly subscription: SubscriptionRecord | null;
  /** What the customer supplied for `awaiting_customer` (e.g. `{ domain }`), if anything. */
  readonly customerInput: Readonly<Record<string, string>> | null;
}

export interface ExternalRefs {
  readonly external_reference_id: string;
  readonly external_workspace_url?: string | null;
  readonly external_customer_id?: string | null;
  readonly external_status?: string | null;
}

export type FulfillmentOutcome =
  | ({ readonly status: "active" } & Partial<ExternalRefs> & { readonly snapshot?: Readonly<Record<string, unknown>> })
  | {
      readonly status: "awaiting_customer";
      readonly reason: string;
      readonly snapshot?: Readonly<Record<string, unknown>>;
    }
  | ({ readonly status: "manual_pending" } & Partial<ExternalRefs> & {
        readonly snapshot?: Readonly<Record<string, unknown>>;
      });

/** What syncStatus, suspend and cancel report back about the delivered thing. */
export interface ExternalState {
  readonly external_status: string;
  readonly external_workspace_url?: string | null;
}

/**
 * One way of delivering, behind one port so the router picks by driver and never by product.
 * `fulfill` must be idempotent per record: a rerun after a crash returns the same delivery.
 * Remote failures throw `UpstreamError`s.
 */
export interface FulfillmentAdapter {
  readonly driver: FulfillmentDriver;
  fulfill(context: FulfillmentContext): Promise<FulfillmentOutcome>;
  syncStatus(context: FulfillmentContext): Promise<ExternalState>;
  suspend(context: FulfillmentContext, reason: string): Promise<ExternalState>;
  cancel(context: FulfillmentContext, reason: string): Promise<ExternalState>;
  /** Optional: brings a suspended delivery back after a renewal, for drivers where suspending means anything. */
  resume?(context: FulfillmentContext): Promise<ExternalState>;
  /**
   * A renewal was paid: whatever carries its own expiry (a license) moves it to the new period
   * end. Without it, a renewal resumes what is not plainly active (a trial, a lapsed tenant).
   */
  renew?(context: FulfillmentContext): Promise<ExternalState>;
  /**
   * Optional: the subscription changed plan (`context.subscription` has the new interval and
   * period). Without it, a plan change is handled as a renewal.
   */
  changePlan?(context: FulfillmentContext): Promise<ExternalState>;
  /**
   * Optional: takes what the customer supplies for `awaiting_customer` before the delivery resumes
   * (claims their domain), or refuses it by throwing (the platform's own, another installation's).
   */
  acceptCustomerInput?(context: FulfillmentContext, input: { readonly domain: string }): Promise<void>;
  /** Ops finished the task this adapter opened; returns what was delivered. */
  completeTask?(
    context: FulfillmentContext,
    task: OpsTask,
    result: Readonly<Record<string, unknown>>,
  ): Promise<ExternalRefs>;
}

export type FulfillmentAdapters = Readonly<Record<FulfillmentDriver, FulfillmentAdapter>>;

export interface FulfillmentFilter {
  readonly status?: FulfillmentStatus;
  readonly driver?: FulfillmentDriver;
  readonly customer_id?: string;
  readonly order_id?: string;
}

export interface RecordChange<To extends FulfillmentStatus = FulfillmentStatus> {
  readonly status: To;
  readonly attempts?: number;
  readonly last_error?: string | null;
  readonly external?: Partial<ExternalRefs>;
  readonly snapshot?: Readonly<Record<string, unknown>>;
}

export interface FulfillmentRepository {
  find(id: string): Promise<FulfillmentRecord | undefined>;
  list(filter: FulfillmentFilter, page: PageRequest): Promise<Page<FulfillmentRecord>>;
  /** One queued record per order item; an existing one is left alone. Returns the new ones. */
  createQueued(order: Order, items: readonly OrderItem[]): Promise<FulfillmentRecord[]>;
  /** Applies `change` only if the record is still in one of `guard.from`; undefined when it moved meanwhile. */
  transition<To extends FulfillmentStatus>(
    id: string,
    guard: StatusGuard<To>,
    change: RecordChange<To>,
  ): Promise<FulfillmentRecord | undefined>;
  /**
   * Counts one more attempt on a record that is still `processing`, without moving it: a fulfill
   * job takes up a record whose last run died midway, or that the customer's input resumed.
   * Undefined when it moved meanwhile.
   */
  reclaim(id: string, attempts: number): Promise<FulfillmentRecord | undefined>;
  setExternalStatus(id: string, state: ExternalState): Promise<void>;
  linkTenant(link: {
    fulfillment_record_id: string;
    provider: string;
    external_tenant_id: string;
    external_subscription_id: string | null;
    external_user_id: string | null;
  }): Promise<void>;
}

/** Assembles what an adapter needs for a record (order, item, product, customer, payment, subscription). */
export interface FulfillmentContextLoader {
  load(record: FulfillmentRecord): Promise<FulfillmentContext>;
}

export interface OpsTask {
  readonly id: string;
  readonly fulfillment_record_id: string;
  readonly kind: "manual_fulfillment" | "provisioning";
  readonly queue_id: string;
  readonly instructions: string;
  readonly due_at: Date;
  readonly status: "open" | "completed" | "cancelled";
  readonly result: Readonly<Record<string, unknown>> | null;
  readonly completed_at: Date | null;
  readonly created_at: Date;
}

export interface OpsTaskRepository {
  /** Opens the task unless one of this kind is already open for the record; returns the open one. */
  open(task: Omit<OpsTask, "id" | "status" | "result" | "completed_at" | "created_at">): Promise<OpsTask>;
  find(id: string): Promise<OpsTask | undefined>;
  list(filter: { status?: OpsTask["status"]; queue_id?: string }, page: PageRequest): Promise<Page<OpsTask>>;
  complete(id: string, by: string, result: Readonly<Record<string, unknown>>): Promise<OpsTask | undefined>;
  cancelFor(fulfillmentRecordId: string): Promise<void>;
}

/** `change_plan`: the subscription moved to another interval; the delivery follows its plan and period. */
export type FulfillmentAction = "cancel" | "suspend" | "resume" | "renew" | "change_plan" | "sync";
