/**
 * The console's only way to the marketplace: the client generated from openapi/marketplace.json,
 * sending the session's bearer token. A 401 ends the session, which sends the user to sign-in.
 */
import createClient from "openapi-fetch";
import type { components, paths } from "../../openapi/generated/marketplace.ts";
import type { SessionStore } from "./session.ts";

export type Schemas = components["schemas"];
export type Problem = Schemas["Problem"];
export type ApiClient = ReturnType<typeof createApiClient>;

/** A refused call, carrying the API's problem document. */
export class ApiProblem extends Error {
  constructor(readonly problem: Problem) {
    super(problem.detail || problem.title);
  }

  /** The message for the field at JSON pointer `path`, if the API refused it. */
  fieldError(path: string): string | undefined {
    return this.problem.errors?.find((error) => error.path === path)?.message;
  }
}

export function createApiClient(session: SessionStore, baseUrl = location.origin) {
  const client = createClient<paths>({ baseUrl });
  client.use({
    onRequest({ request }) {
      const token = session.current()?.token;
      if (token) request.headers.set("authorization", `Bearer ${token}`);
      request.headers.set("accept", "application/json");
      return request;
    },
    onResponse({ request, response }) {
      // Only the token that was refused ends its session: a late answer to a request sent before
      // a new sign-in leaves the new session alone.
      const current = session.current()?.token;
      if (response.status === 401 && current && request.headers.get("authorization") === `Bearer ${current}`)
        session.signOut();
      return response;
    },
  });
  return client;
}

/** The answer of a call, or an `ApiProblem` thrown with the API's own words. */
export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (response.ok) return data as T;
  throw new ApiProblem(asProblem(error, response));
}

function asProblem(error: unknown, response: Response): Problem {
  if (typeof error === "object" && error !== null && "code" in error) return error as Problem;
  return {
    type: "about:blank",
    title: response.statusText || "Request failed",
    status: response.status,
    detail: `The server answered ${response.status}.`,
    code: "UNEXPECTED_RESPONSE",
  };
}

/** What to show a person for any failure. */
export const messageOf = (error: unknown) =>
  error instanceof ApiProblem ? error.message : error instanceof Error ? error.message : String(error);
