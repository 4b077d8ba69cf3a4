import { SandboxError } from "../sandbox-error.ts";

/** One entry of a validation error's `errors`: the field and what is wrong with it. */
export interface FieldError {
  readonly field: string;
  readonly message: string;
}

/** A failure answered in Paddle's error shape; thrown inside gateway_a handlers only. */
export class PaddleError extends SandboxError {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly type: "request_error" | "api_error" = "request_error",
    readonly more: { readonly errors?: readonly FieldError[]; readonly section?: string } = {},
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

  /** Paddle's answer to fields it does not know: 400 `invalid_field`, each one listed. */
  static unknownFields(fields: readonly string[]): PaddleError {
    return new PaddleError(400, "invalid_field", "Request does not pass validation.", "request_error", {
      errors: fields.map((field) => ({ field, message: "unknown field" })),
    });
  }

  static conflict(detail: string): PaddleError {
    return new PaddleError(409, "conflict", detail);
  }

  static customerExists(id: string): PaddleError {
    return new PaddleError(
      409,
      "customer_already_exists",
      `customer email conflicts with customer of id ${id}`,
      "request_error",
      { section: "customers" },
    );
  }

  body(requestId: string) {
    return {
      error: {
        type: this.type,
        code: this.code,
        detail: this.detail,
        documentation_url: `https://developer.paddle.com/errors/${this.more.section ?? "shared"}/${this.code}`,
        ...(this.more.errors ? { errors: this.more.errors } : {}),
      },
      meta: { request_id: requestId },
    };
  }
}
