export const PROBLEM_CONTENT_TYPE = "application/problem+json";

/**
 * One refused field, under its JSON pointer. The marketplace's domain `FieldError` has the same
 * shape, so its errors render here without the kit knowing the domain.
 */
export interface ProblemField {
  readonly path: string;
  readonly message: string;
  readonly code?: string;
}

export interface Problem {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly detail: string;
  readonly code: string;
  readonly errors?: readonly ProblemField[];
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

/** `type` is a stable URI per code so clients can look the code up. */
export function problem(
  status: number,
  code: string,
  detail: string,
  extra: { errors?: readonly ProblemField[]; instance?: string; extensions?: Readonly<Record<string, unknown>> } = {},
): Problem {
  return {
    // Extension members first: none may stand in for a member the RFC defines.
    ...extra.extensions,
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

/**
 * An error that names its own answer: raised by the HTTP layer itself (body limits, media types)
 * and by the simulator, which has no domain of its own.
 */
export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    detail: string,
    readonly errors?: readonly ProblemField[],
  ) {
    super(detail);
    this.name = "HttpProblem";
  }

  toProblem(): Problem {
    return problem(this.status, this.code, this.message, this.errors ? { errors: this.errors } : {});
  }
}

/** Fields a schema cannot judge (a NUL character, a cursor this API never issued): the 422 a schema refusal gets. */
export function invalidFields(errors: readonly ProblemField[]): HttpProblem {
  return new HttpProblem(422, "VALIDATION_FAILED", "The request is not valid.", errors);
}
