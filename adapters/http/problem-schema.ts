import { t } from "elysia";
import { Int } from "../../kit/schema-types.ts";
import { named } from "./openapi-models.ts";

export const FieldErrorSchema = named(
  "FieldError",
  t.Object({
    path: t.String({ description: "JSON pointer of the offending field, `/` for the whole body" }),
    message: t.String(),
    code: t.Optional(t.String()),
  }),
);

/** RFC 9457 problem details, the body of every error response. */
export const ProblemSchema = named(
  "Problem",
  t.Object({
    type: t.String({ description: "URI of the problem type: `urn:problem:` and the code in kebab case" }),
    title: t.String(),
    status: Int({ minimum: 400, maximum: 599, description: "The HTTP status of the response" }),
    detail: t.String(),
    code: t.String({ pattern: "^[A-Z][A-Z0-9_]*$", description: "Stable UPPER_SNAKE code to branch on" }),
    errors: t.Optional(t.Array(FieldErrorSchema, { description: "One entry per refused field" })),
    instance: t.Optional(t.String({ description: "`urn:request:` and the request id (X-Request-Id)" })),
    subscription: t.Optional(
      t.Object(
        {
          id: t.String(),
          status: t.String({ description: "The subscription's status here, caught up: `cancelled`" }),
          gateway_status: t.String({ description: "What the gateway says of it, in its own word" }),
          cancelled_at: t.String({ format: "date-time" }),
        },
        { description: "With `SUBSCRIPTION_ENDED`: the subscription as its gateway had already ended it" },
      ),
    ),
  }),
);
