import { Elysia, t } from "elysia";
import type { FulfillmentAction, FulfillmentFilter, OpsTask } from "../../application/fulfillment/ports.ts";
import { DeadJobNotFound } from "../../application/shared/errors.ts";
import type { JobRecord, JobState } from "../../application/shared/jobs.ts";
import type { Page, PageRequest } from "../../application/shared/ports.ts";
import { FULFILLMENT_DRIVERS } from "../../domain/catalog/drivers.ts";
import { FULFILLMENT_STATUSES, type FulfillmentRecord } from "../../domain/fulfillment/fulfillment.ts";
import { type AuthOptions, createAuth, type Principal } from "./auth-plugin.ts";
import { FulfillmentSchema, JobSchema, OpsTaskSchema } from "./fulfillment-schemas.ts";
import { toFulfillmentBody, toJobBody, toTaskBody } from "./fulfillment-serializers.ts";
import { page } from "./openapi-models.ts";
import { Cursor, everyOf, IdParams, ListLimit, oneOf, pageRequest } from "./shared-schemas.ts";

export interface AdminFulfillmentDeps {
  readonly auth: AuthOptions;
  listFulfillments(filter: FulfillmentFilter, page: PageRequest): Promise<Page<FulfillmentRecord>>;
  getFulfillment(id: string): Promise<FulfillmentRecord>;
  retryFulfillment(id: string, actorId: string): Promise<FulfillmentRecord>;
  actOnFulfillment(id: string, action: FulfillmentAction, reason: string, actorId: string): Promise<FulfillmentRecord>;
  listTasks(filter: { status?: OpsTask["status"]; queue_id?: string }, page: PageRequest): Promise<Page<OpsTask>>;
  completeTask(taskId: string, adminId: string, result: Readonly<Record<string, unknown>>): Promise<FulfillmentRecord>;
  listJobs(
    filter: { state?: JobState; kind?: string },
    page: { limit: number; cursor?: string },
  ): Promise<Page<JobRecord>>;
  redriveJob(jobId: string, actorId: string): Promise<JobRecord | undefined>;
}

const ActionBody = t.Optional(
  t.Object({ reason: t.Optional(t.String({ maxLength: 500 })) }, { additionalProperties: false }),
);

export function createAdminFulfillmentRoutes(deps: AdminFulfillmentDeps) {
  return new Elysia({ name: "admin-fulfillment-routes", tags: ["admin: fulfillment"] })
    .use(createAuth(deps.auth))
    .guard({ auth: "admin", detail: { security: [{ bearer: [] }] } }, (app) => {
      /** Sync, suspend or cancel: three routes alike but for the action. */
      const act = (action: "sync" | "suspend" | "cancel") => ({
        handler: async ({
          params,
          body,
          principal,
        }: {
          params: { id: string };
          body?: { reason?: string } | null;
          principal: Principal;
        }) =>
          toFulfillmentBody(
            await deps.actOnFulfillment(params.id, action, body?.reason ?? `${action} by an admin`, principal.userId),
          ),
        options: {
          params: IdParams,
          body: ActionBody,
          response: { 200: FulfillmentSchema },
          detail: {
            summary: `${action[0]?.toUpperCase()}${action.slice(1)} the delivered product through its adapter`,
          },
        },
      });
      const sync = act("sync");
      const suspend = act("suspend");
      const cancel = act("cancel");
      return app
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
          async ({ params, principal }) => toFulfillmentBody(await deps.retryFulfillment(params.id, principal.userId)),
          {
            params: IdParams,
            response: { 200: FulfillmentSchema },
            detail: { summary: "Queue a failed delivery again" },
          },
        )
        .post("/api/admin/fulfillments/:id/sync", sync.handler, sync.options)
        .post("/api/admin/fulfillments/:id/suspend", suspend.handler, suspend.options)
        .post("/api/admin/fulfillments/:id/cancel", cancel.handler, cancel.options)
        .get(
          "/api/admin/manual-tasks",
          async ({ query }) => {
            const { cursor, limit, ...filter } = query;
            const found = await deps.listTasks(filter, pageRequest({ cursor, limit }));
            return { items: found.items.map(toTaskBody), next_cursor: found.next_cursor };
          },
          {
            query: t.Object({
              status: t.Optional(everyOf<OpsTask["status"]>()(["open", "completed", "cancelled"])),
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
              state: t.Optional(everyOf<JobState>()(["pending", "running", "done", "dead"])),
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
          async ({ params, principal }) => {
            const job = await deps.redriveJob(params.id, principal.userId);
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
