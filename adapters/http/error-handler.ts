import { Elysia, type ValidationError } from "elysia";
import { DomainError } from "../../domain/shared/domain-error.ts";
import type { Logger } from "../logging/logger.ts";
import { isDatabaseUnavailable } from "../postgres/database.ts";
import { HttpProblem, PROBLEM_CONTENT_TYPE, type Problem, problem, STATUS_BY_CATEGORY } from "./problem.ts";
import { requestIdOf } from "./request-context.ts";
import { fieldErrorsOf } from "./validation-messages.ts";

function toProblem(code: string | number, error: unknown, logger: Logger, request: Request): Problem {
  // Elysia wraps whatever the body parser throws in a ParseError; our own problem is the cause.
  if (
    code === "PARSE" &&
    error instanceof Error &&
    (error.cause instanceof HttpProblem || error.cause instanceof DomainError)
  ) {
    return toProblem("HTTP", error.cause, logger, request);
  }
  if (error instanceof DomainError) {
    return problem(STATUS_BY_CATEGORY[error.category], error.code, error.message, {
      ...(error.errors ? { errors: error.errors } : {}),
    });
  }
  if (error instanceof HttpProblem) return problem(error.status, error.code, error.message);
  if (isDatabaseUnavailable(error)) {
    logger.warn(
      { req_id: requestIdOf(request), err: error instanceof Error ? error.message : String(error) },
      "database unavailable",
    );
    return problem(503, "DATABASE_UNAVAILABLE", "The database cannot be reached right now; retry shortly.");
  }
  switch (code) {
    case "PARSE":
      return problem(400, "MALFORMED_BODY", "The request body could not be parsed.");
    case "VALIDATION":
      // A response that breaks its own schema is our bug, not the caller's.
      if ((error as ValidationError).type === "response") {
        logger.error({ req_id: requestIdOf(request), err: error }, "response does not match its schema");
        return problem(500, "INTERNAL_ERROR", "Something went wrong on our side. The request id identifies it.");
      }
      return problem(422, "VALIDATION_FAILED", "The request does not match the schema.", {
        errors: fieldErrorsOf(error as ValidationError),
      });
    case "NOT_FOUND":
      return problem(404, "ROUTE_NOT_FOUND", "No resource lives at this path.");
    default: {
      logger.error(
        { req_id: requestIdOf(request), err: error instanceof Error ? error : String(error) },
        "unhandled error",
      );
      return problem(500, "INTERNAL_ERROR", "Something went wrong on our side. The request id identifies it.");
    }
  }
}

/** One place that turns every failure into RFC 9457 problem+json; no stack or SQL leaves it. */
export function createErrorHandler(deps: { logger: Logger }) {
  return new Elysia({ name: "error-handler" }).onError({ as: "global" }, ({ code, error, set, request }) => {
    const body = toProblem(code, error, deps.logger, request);
    set.status = body.status;
    set.headers["content-type"] = PROBLEM_CONTENT_TYPE;
    if (body.status === 503) set.headers["retry-after"] = "2";
    return JSON.stringify({ ...body, instance: `urn:request:${requestIdOf(request)}` });
  });
}
