import { afterAll, describe, expect, test } from "bun:test";
import { ApiProblem, createApiClient, unwrap } from "../../../web/shared/api.ts";
import { createSessionStore, type Session } from "../../../web/shared/session.ts";

const storage = (): Storage => {
  const items = new Map<string, string>();
  return {
    length: 0,
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: () => null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, value),
  };
};
const sessionWith = (token: string): Session => ({ token, user: { id: "u", email: "a@example.com", role: "admin" } });

const problem = (status: number, code: string, detail: string, errors?: object[]) =>
  Response.json({ type: "urn:problem:x", title: "x", status, detail, code, errors }, { status });

/** The API's answers: /api/me refuses the token "old" (after `delay` ms), /api/admin/jobs refuses all, /api/orders is garbage. */
const server = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  async fetch(request) {
    const { pathname, searchParams } = new URL(request.url);
    if (pathname === "/api/me") {
      await Bun.sleep(Number(searchParams.get("delay") ?? 0));
      return request.headers.get("authorization") === "Bearer old"
        ? problem(401, "UNAUTHORIZED", "The token expired.")
        : Response.json({
            id: "u",
            email: "a@example.com",
            name: "A",
            role: "admin",
            created_at: "2026-01-01T00:00:00Z",
          });
    }
    if (pathname === "/api/admin/jobs")
      return problem(422, "INVALID_CURSOR", "That cursor is not ours.", [{ path: "/cursor", message: "not ours" }]);
    return new Response("<html>proxy error</html>", { status: 502, headers: { "content-type": "text/html" } });
  },
});
afterAll(() => server.stop(true));
const baseUrl = `http://127.0.0.1:${server.port}`;

describe("the console's API client", () => {
  test("sends the session's bearer token, and a 401 for that token ends the session", async () => {
    const session = createSessionStore("k", storage());
    session.signIn(sessionWith("old"));
    const api = createApiClient(session, baseUrl);
    await expect(unwrap(api.GET("/api/me"))).rejects.toBeInstanceOf(ApiProblem);
    expect(session.current()).toBeUndefined();
  });

  test("a late 401 for a token already replaced by a new sign-in leaves the new session alone", async () => {
    const session = createSessionStore("k", storage());
    session.signIn(sessionWith("old"));
    const api = createApiClient(session, baseUrl);
    const late = api.GET("/api/me", { params: { query: { delay: 100 } as never } });
    session.signIn(sessionWith("new"));
    expect((await late).response.status).toBe(401);
    expect(session.current()?.token).toBe("new");
  });

  test("a refusal carries the API's problem: its message and its field errors", async () => {
    const api = createApiClient(createSessionStore("k", storage()), baseUrl);
    const refused = await unwrap(api.GET("/api/admin/jobs")).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiProblem);
    expect((refused as ApiProblem).message).toBe("That cursor is not ours.");
    expect((refused as ApiProblem).problem.code).toBe("INVALID_CURSOR");
    expect((refused as ApiProblem).fieldError("/cursor")).toBe("not ours");
    expect((refused as ApiProblem).fieldError("/limit")).toBeUndefined();
  });

  test("an answer that is no problem document (a proxy's HTML page) still gives words and the status", async () => {
    const api = createApiClient(createSessionStore("k", storage()), baseUrl);
    const refused = (await unwrap(api.GET("/api/orders")).catch((error: unknown) => error)) as ApiProblem;
    expect(refused.problem).toMatchObject({ status: 502, code: "UNEXPECTED_RESPONSE" });
    expect(refused.message).toBe("The server answered 502.");
  });
});
