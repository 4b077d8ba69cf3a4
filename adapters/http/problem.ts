import type { ErrorCategory, FieldError } from "../../domain/shared/domain-error.ts";

export const PROBLEM_CONTENT_TYPE = "application/problem+json";

export interface Problem {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly detail: string;
  readonly code: string;
  readonly errors?: readonly FieldError[];
  readonly instance?: string;
}

const TITLES: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  409: "Conflict",
  410: "Gone",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  422: "Unprocessable Content",
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

export const STATUS_BY_CATEGORY: Record<ErrorCategory, number> = {
  malformed: 400,
  invalid: 422,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  gone: 410,
  unavailable: 503,
  upstream_failed: 502,
  upstream_timeout: 504,
};

/** `type` is a stable URI per code so clients can look the code up. */
export function problem(
  status: number,
  code: string,
  detail: string,
  extra: { errors?: readonly FieldError[]; instance?: string } = {},
): Problem {
  return {
    type: `urn:problem:${code.toLowerCase().replaceAll("_", "-")}`,
    title: TITLES[status] ?? "Error",
    status,
    detail,
    code,
    ...(extra.errors ? { errors: extra.errors } : {}),
    ...(extra.instance ? { instance: extra.instance } : {}),
  };
}

export function problemResponse(body: Problem, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status: body.status,
    headers: { "content-type": PROBLEM_CONTENT_TYPE, ...headers },
  });
}

/** Errors raised by the HTTP layer itself (body limits, media types), not by the domain. */
export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    detail: string,
  ) {
    super(detail);
    this.name = "HttpProblem";
  }
}
