import { requestIdOf } from "../../kit/request-context.ts";
import { secretsEqual } from "../hmac-signature.ts";
import { rawBodyOf } from "../raw-body.ts";
import { SandboxError } from "./sandbox-error.ts";

export interface SandboxContext {
  readonly request: Request;
  readonly params: Record<string, string>;
  readonly query: Record<string, string | undefined>;
  readonly set: { status?: number | string; headers: Record<string, string | number> };
  /** The exact bytes of the request body (empty when there was none). */
  readonly raw: Uint8Array;
}

export type BearerCheck = "missing" | "wrong" | "ok";

/** Whether the request carries `Authorization: Bearer <apiKey>` (constant-time compare). */
export function checkBearer(request: Request, apiKey: string): BearerCheck {
  const header = request.headers.get("authorization");
  if (!header) return "missing";
  const given = /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
  return given !== undefined && secretsEqual(given, apiKey) ? "ok" : "wrong";
}

/**
 * Wraps a sandbox route: checks the key first, then answers any SandboxError in the gateway's own
 * error shape. Anything else falls through to the simulator's problem+json handler.
 */
export function createSandboxHandler(authorize: (request: Request) => void) {
  return <T>(handle: (context: SandboxContext) => T | Promise<T>) =>
    async (context: Omit<SandboxContext, "raw">) => {
      try {
        authorize(context.request);
        return await handle({ ...context, raw: rawBodyOf(context.request) });
      } catch (error) {
        if (!(error instanceof SandboxError)) throw error;
        context.set.status = error.status;
        return error.body(requestIdOf(context.request));
      }
    };
}
