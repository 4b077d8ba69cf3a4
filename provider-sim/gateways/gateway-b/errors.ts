import { SandboxError } from "../sandbox-error.ts";

export type StripeErrorType = "invalid_request_error" | "api_error" | "card_error" | "idempotency_error";

/** A failure answered in Stripe's error shape; thrown inside gateway_b handlers only. */
export class StripeError extends SandboxError {
  constructor(
    readonly status: number,
    readonly type: StripeErrorType,
    message: string,
    readonly code: string | undefined = undefined,
    readonly param: string | undefined = undefined,
  ) {
    super(message);
    this.name = "StripeError";
  }

  static missing(param: string): StripeError {
    return new StripeError(
      400,
      "invalid_request_error",
      `Missing required param: ${param}.`,
      "parameter_missing",
      param,
    );
  }

  static invalid(param: string, problem: string, code = "parameter_invalid"): StripeError {
    return new StripeError(400, "invalid_request_error", `Invalid ${param}: ${problem}.`, code, param);
  }

  /** A reference to an object that does not exist: 404 in a path, 400 in a parameter. */
  static noSuch(kind: string, id: string, param = "id"): StripeError {
    return new StripeError(
      param === "id" ? 404 : 400,
      "invalid_request_error",
      `No such ${kind}: '${id}'`,
      "resource_missing",
      param,
    );
  }

  body(): unknown {
    return {
      error: {
        type: this.type,
        ...(this.code
          ? { code: this.code, doc_url: `https://stripe.com/docs/error-codes/${this.code.replaceAll("_", "-")}` }
          : {}),
        message: this.message,
        ...(this.param ? { param: this.param } : {}),
      },
    };
  }
}
