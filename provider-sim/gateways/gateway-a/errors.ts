import { SandboxError } from "../sandbox-error.ts";

/** A failure answered in Paddle's error shape; thrown inside gateway_a handlers only. */
export class PaddleError extends SandboxError {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly type: "request_error" | "api_error" = "request_error",
  ) {
    super(detail);
    this.name = "PaddleError";
  }

  static notFound(id: string): PaddleError {
    return new PaddleError(404, "not_found", `Entity ${id} not found.`);
  }

  static invalidField(field: string, problem: string): PaddleError {
    return new PaddleError(422, "invalid_field", `Invalid request: ${field} ${problem}.`);
  }

  static conflict(detail: string): PaddleError {
    return new PaddleError(409, "conflict", detail);
  }

  body(requestId: string) {
    return {
      error: {
        type: this.type,
        code: this.code,
        detail: this.detail,
        documentation_url: `https://developer.paddle.com/errors/shared/${this.code}`,
      },
      meta: { request_id: requestId },
    };
  }
}
