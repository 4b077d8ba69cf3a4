import { Elysia, t } from "elysia";
import { asProblem, IdParams, optionalBody } from "../control-problem.ts";
import type { GatewayASandbox } from "./sandbox.ts";

const TaxBody = t.Object(
  {
    rate: t.Number({ minimum: 0, exclusiveMaximum: 1 }),
    default_tax_mode: t.Optional(t.Union([t.Literal("exclusive"), t.Literal("inclusive")])),
  },
  { additionalProperties: false },
);

/** `/__sim/gateway_a`: chargebacks and the sandbox's tax. */
export function createGatewayAControlRoutes(sandbox: GatewayASandbox) {
  return new Elysia({ prefix: "/__sim/gateway_a" })
    .post(
      "/transactions/:id/chargeback",
      ({ params, body }) => asProblem(() => sandbox.chargeback(params.id, body?.amount ?? null)),
      { params: IdParams, body: optionalBody({ amount: t.Optional(t.Integer({ minimum: 1 })) }) },
    )
    .post(
      "/transactions/:id/chargeback/reverse",
      ({ params }) => asProblem(() => sandbox.reverseChargeback(params.id)),
      {
        params: IdParams,
      },
    )
    .get("/tax", () => sandbox.tax())
    .post(
      "/tax",
      ({ body }) => sandbox.setTax({ rate: body.rate, default_tax_mode: body.default_tax_mode ?? "exclusive" }),
      { body: TaxBody },
    );
}
