import { expect } from "bun:test";
import { expectMatchesDocument } from "./openapi-contract.ts";

type Handler = { handle(request: Request): Promise<Response>; config?: { name?: string } };

/** The document describes the marketplace app (`createApp`), not the simulator or test-only apps. */
const isMarketplace = (app: Handler) => app.config?.name === "marketplace";

export interface JsonResponse<T = any> {
  readonly status: number;
  readonly headers: Headers;
  readonly body: T;
}

/**
 * Sends a request through the app in-process, as Elysia recommends for route tests. A marketplace
 * response must also be one that openapi/marketplace.json declares.
 */
export async function call<T = any>(
  app: Handler,
  method: string,
  path: string,
  options: { body?: unknown; rawBody?: BodyInit; token?: string; headers?: Record<string, string> } = {},
): Promise<JsonResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: BodyInit | undefined = options.rawBody;
  if (options.body !== undefined) {
    headers["content-type"] ??= "application/json";
    body = JSON.stringify(options.body);
  }
  const response = await app.handle(new Request(`http://localhost${path}`, { method, headers, body }));
  const text = await response.text();
  if (isMarketplace(app))
    expectMatchesDocument(method, path, { status: response.status, headers: response.headers, text });
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // Not JSON: the test sees the raw text.
  }
  return { status: response.status, headers: response.headers, body: parsed as T };
}

export function expectProblemShape(response: JsonResponse, status: number, code: string): void {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toStartWith("application/problem+json");
  const body = response.body as Record<string, unknown>;
  expect({ status: body.status, code: body.code }).toEqual({ status, code });
  for (const field of ["type", "title", "detail"]) expect(typeof body[field]).toBe("string");
}

/** A JSON request to a real server; the response must be one that openapi/marketplace.json declares. */
export async function http(
  base: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(options.body === undefined ? {} : { "content-type": "application/json" }),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...options.headers,
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  const text = await response.text();
  // A followed redirect answered from elsewhere; only the marketplace's own answers are documented.
  if (!response.redirected)
    expectMatchesDocument(method, path, { status: response.status, headers: response.headers, text });
  return { status: response.status, headers: response.headers, body: (text ? JSON.parse(text) : undefined) as any };
}
