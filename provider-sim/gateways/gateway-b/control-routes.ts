import { Elysia, t } from "elysia";
import { asProblem, IdParams, optionalBody } from "../control-problem.ts";
import { DISPUTE_REASONS } from "./payment-model.ts";
import type { GatewayBSandbox } from "./sandbox.ts";

const DisputeBody = optionalBody({
  reason: t.Optional(t.Union(DISPUTE_REASONS.map((reason) => t.Literal(reason)))),
  amount: t.Optional(t.Integer({ minimum: 1 })),
});

/** `/__sim/gateway_b`: disputes and the sandbox's tax. */
export function createGatewayBControlRoutes(sandbox: GatewayBSandbox) {
  return new Elysia({ prefix: "/__sim/gateway_b" })
    .post(
      "/charges/:id/dispute",
      ({ params, body }) =>
        asProblem(() =>
          sandbox.dispute(params.id, { reason: body?.reason ?? "general", amount: body?.amount ?? null }),
        ),
      { params: IdParams, body: DisputeBody },
    )
    .post("/disputes/:id/close", ({ params, body }) => asProblem(() => sandbox.closeDispute(params.id, body.outcome)), {
      params: IdParams,
      body: t.Object({ outcome: t.Union([t.Literal("won"), t.Literal("lost")]) }, { additionalProperties: false }),
    })
    .get("/tax", () => sandbox.tax())
    .post("/tax", ({ body }) => sandbox.setTax({ rate: body.rate }), {
      body: t.Object({ rate: t.Number({ minimum: 0, exclusiveMaximum: 1 }) }, { additionalProperties: false }),
    });
}
