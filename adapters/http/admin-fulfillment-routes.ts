import { Elysia, t } from "elysia";
import type { FulfillmentAction, FulfillmentFilter, OpsTask } from "../../application/fulfillment/ports.ts";
import { DeadJobNotFound, type JobRecord, type JobState } from "../../application/shared/jobs.ts";
import type { Page, PageRequest } from "../../application/shared/ports.ts";
import { FULFILLMENT_DRIVERS } from "../../domain/catalog/drivers.ts";
import { FULFILLMENT_STATUSES, type FulfillmentRecord } from "../../domain/fulfillment/fulfillment.ts";
import { page } from "./api-model.ts";
import { type AuthOptions, createAuth } from "./auth-plugin.ts";
import { Cursor, ListLimit, oneOf } from "./catalog-schemas.ts";
import { FulfillmentSchema, JobSchema, OpsTaskSchema } from "./fulfillment-schemas.ts";
import { toFulfillmentBody, toJobBody, toTaskBody } from "./fulfillment-serializers.ts";

export interface AdminFulfillmentDeps {
  readonly auth: AuthOptions;
  listFulfillments(filter: FulfillmentFilter, page: PageRequest): Promise<Page<FulfillmentRecord>>;
  getFulfillment(id: string): Promise<FulfillmentRecord>;
  retryFulfillment(id: string): Promise<FulfillmentRecord>;
  actOnFulfillment(id: string, action: FulfillmentAction, reason: string): Promise<FulfillmentRecord>;
  listTasks(filter: { status?: OpsTask["status"]; queue_id?: string }, page: PageRequest): Promise<Page<OpsTask>>;
  completeTask(taskId: string, adminId: string, result: Readonly<Record<string, unknown>>): Promise<FulfillmentRecord>;
  listJobs(
    filter: { state?: JobState; kind?: string },
    page: { limit: number; cursor?: string },
  ): Promise<Page<JobRecord>>;
  redriveJob(jobId: string): Promise<JobRecord | undefined>;
}

const IdParams = t.Object({ id: t.String({ maxLength: 64 }) });
const pageRequest = (query: { cursor?: string; limit?: number }) => ({
  limit: query.limit ?? 20,
  ...(query.cursor ? { cursor: query.cursor } : {}),
});

export function createAdminFulfillmentRoutes(deps: AdminFulfillmentDeps) {
  return new Elysia({ name: "admin-fulfillment-routes", tags: ["admin: fulfillment"] })
    .use(createAuth(deps.auth))
    .guard({ auth: "admin", detail: { security: [{ bearer: [] }] } }, (app) => {
      let routes = app
        .get(
          "/api/admin/fulfillments",
          async ({ query }) => {
            const { cursor, limit, ...filter } = query;
            const found = await deps.listFulfillments(filter, pageRequest({ cursor, limit }));
            return { items: found.items.map(toFulfillmentBody), next_cursor: found.next_cursor };
          },
          {
            query: t.Object({
              status: t.Optional(oneOf(FULFILLMENT_STATUSES)),
              driver: t.Optional(oneOf(FULFILLMENT_DRIVERS)),
              cursor: Cursor,
              limit: ListLimit,
            }),
            response: { 200: page(FulfillmentSchema) },
            detail: { summary: "Fulfillments, newest first, filtered by status and driver" },
          },
        )
        .get(
          "/api/admin/fulfillments/:id",
          async ({ params }) => toFulfillmentBody(await deps.getFulfillment(params.id)),
          { params: IdParams, response: { 200: FulfillmentSchema }, detail: { summary: "One fulfillment" } },
        )
        .post(
          "/api/admin/fulfillments/:id/retry",
          async ({ params }) => toFulfillmentBody(await deps.retryFulfillment(params.id)),
          {
            params: IdParams,
            response: { 200: FulfillmentSchema },
            detail: { summary: "Queue a failed delivery again" },
          },
        );
      for (const action of ["sync", "suspend", "cancel"] as const) {
        routes = routes.post(
          `/api/admin/fulfillments/:id/${action}`,
          async ({ params, body }) =>
            toFulfillmentBody(await deps.actOnFulfillment(params.id, action, body?.reason ?? `${action} by an admin`)),
          {
            params: IdParams,
            body: t.Optional(
              t.Object({ reason: t.Optional(t.String({ maxLength: 500 })) }, { additionalProperties: false }),
            ),
            response: { 200: FulfillmentSchema },
            detail: {
              summary: `${action[0]?.toUpperCase()}${action.slice(1)} the delivered product through its adapter`,
            },
          },
        ) as unknown as typeof routes;
      }
      return routes
        .get(
          "/api/admin/manual-tasks",
          async ({ query }) => {
            const { cursor, limit, ...filter } = query;
            const found = await deps.listTasks(filter, pageRequest({ cursor, limit }));
            return { items: found.items.map(toTaskBody), next_cursor: found.next_cursor };
          },
          {
            query: t.Object({
              status: t.Optional(oneOf(["open", "completed", "cancelled"])),
              queue_id: t.Optional(t.String({ maxLength: 100 })),
              cursor: Cursor,
              limit: ListLimit,
            }),
            response: { 200: page(OpsTaskSchema) },
            detail: { summary: "Operations tasks (manual fulfillment and provisioning), newest first" },
          },
        )
        .post(
          "/api/admin/manual-tasks/:id/complete",
          async ({ params, body, principal }) =>
            toFulfillmentBody(await deps.completeTask(params.id, principal.userId, body ?? {})),
          {
            params: IdParams,
            body: t.Optional(
              t.Object(
                { url: t.Optional(t.String({ maxLength: 2048 })), notes: t.Optional(t.String({ maxLength: 5000 })) },
                { additionalProperties: false },
              ),
            ),
            response: { 200: FulfillmentSchema },
            detail: {
              summary: "Ops finished the task (with the installation URL for provisioning); the item becomes active",
            },
          },
        )
        .get(
          "/api/admin/jobs",
          async ({ query }) => {
            const { cursor, limit, ...filter } = query;
            const found = await deps.listJobs(filter, pageRequest({ cursor, limit }));
            return { items: found.items.map(toJobBody), next_cursor: found.next_cursor };
          },
          {
            query: t.Object({
              state: t.Optional(oneOf(["pending", "running", "done", "dead"])),
              kind: t.Optional(t.String({ maxLength: 50 })),
              cursor: Cursor,
              limit: ListLimit,
            }),
            response: { 200: page(JobSchema) },
            detail: { summary: "Background jobs; state=dead lists the dead letters" },
          },
        )
        .post(
          "/api/admin/jobs/:id/redrive",
          async ({ params }) => {
            const job = await deps.redriveJob(params.id);
            if (!job) throw new DeadJobNotFound();
            return toJobBody(job);
          },
          {
            params: IdParams,
            response: { 200: JobSchema },
            detail: { summary: "Run a dead job again from its first attempt" },
          },
        );
    });
}
