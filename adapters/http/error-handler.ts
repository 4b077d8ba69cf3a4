import { DomainError, type ErrorCategory } from "../../domain/shared/domain-error.ts";
import type { Logger } from "../../kit/logger.ts";
import { type Problem, problem } from "../../kit/problem.ts";
import { createProblemHandler } from "../../kit/problem-handler.ts";
import { requestIdOf } from "../../kit/request-context.ts";
import { isDatabaseUnavailable } from "../postgres/database.ts";

export const STATUS_BY_CATEGORY: Record<ErrorCategory, number> = {
  malformed: 400,
  invalid: 422,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  gone: 410,
  rate_limited: 429,
  unavailable: 503,
  upstream_failed: 502,
  upstream_timeout: 504,
};

/** What only the marketplace knows: its domain errors and an unreachable database. No SQL leaves it. */
function marketplaceProblem(logger: Logger) {
  return (error: unknown, request: Request): Problem | undefined => {
    if (error instanceof DomainError) {
      return problem(STATUS_BY_CATEGORY[error.category], error.code, error.message, {
        ...(error.errors ? { errors: error.errors } : {}),
        ...(error.extensions ? { extensions: error.extensions } : {}),
      });
    }
    if (!isDatabaseUnavailable(error)) return undefined;
    logger.warn(
      { req_id: requestIdOf(request), err: error instanceof Error ? error.message : String(error) },
      "database unavailable",
    );
    return problem(503, "DATABASE_UNAVAILABLE", "The database cannot be reached right now; retry shortly.");
  };
}

/** The kit's problem+json handler, taught the marketplace's own errors. */
export function createErrorHandler(deps: { logger: Logger }) {
  return createProblemHandler({ logger: deps.logger, known: marketplaceProblem(deps.logger) });
}
