import { t } from "elysia";
import { HttpProblem } from "../../kit/problem.ts";
import { SandboxError } from "./sandbox-error.ts";

export const IdParams = t.Object({ id: t.String({ minLength: 1, maxLength: 100 }) });

/** An optional JSON body: an empty request body arrives as null. */
export const optionalBody = <T extends Parameters<typeof t.Object>[0]>(properties: T) =>
  t.Nullable(t.Object(properties, { additionalProperties: false }));

/** Controls answer problem+json like the other `/__sim` routes, whatever the gateway's own error shape. */
export async function asProblem<T>(action: () => T | Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if (!(error instanceof SandboxError)) throw error;
    throw new HttpProblem(error.status, (error.code ?? "gateway_error").toUpperCase(), error.message);
  }
}
