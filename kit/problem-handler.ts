import { Elysia, type ValidationError } from "elysia";
import type { Logger } from "./logger.ts";
import { HttpProblem, PROBLEM_CONTENT_TYPE, type Problem, problem } from "./problem.ts";
import { requestIdOf } from "./request-context.ts";
import { fieldErrorsOf } from "./validation-messages.ts";

/**
 * The errors an app knows beyond `HttpProblem` (the marketplace's domain errors, an unreachable
 * database): their problem, or undefined for any other error.
 */
export type ProblemMapper = (error: unknown, request: Request) => Problem | undefined;

const INTERNAL = "Something went wrong on our side. The request id identifies it.";

function toProblem(code: string | number, error: unknown, known: ProblemMapper, logger: Logger, request: Request) {
  // Elysia wraps whatever the body parser throws in a ParseError; our own problem is the cause.
  if (code === "PARSE" && error instanceof Error && error.cause !== undefined) {
    // Elysia's JSON parser reads bodies already checked for size, encoding and structure: what is left is syntax.
    if (error.cause instanceof SyntaxError)
      return problem(400, "MALFORMED_JSON", "The request body is not valid JSON.");
    const cause = error.cause instanceof HttpProblem ? error.cause.toProblem() : known(error.cause, request);
    if (cause) return cause;
  }
  if (error instanceof HttpProblem) return error.toProblem();
  const mapped = known(error, request);
  if (mapped) return mapped;
  switch (code) {
    case "PARSE":
      return problem(400, "MALFORMED_BODY", "The request body could not be parsed.");
    case "VALIDATION":
      // A response that breaks its own schema is our bug, not the caller's.
      if ((error as ValidationError).type === "response") {
        logger.error({ req_id: requestIdOf(request), err: error }, "response does not match its schema");
        return problem(500, "INTERNAL_ERROR", INTERNAL);
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
      return problem(500, "INTERNAL_ERROR", INTERNAL);
    }
  }
}

/**
 * One place that turns every failure into RFC 9457 problem+json; no stack leaves it. Each app
 * passes what only it knows as `known`; the rest (schema refusals, unknown routes, bodies that do
 * not parse, anything unexpected) is answered the same way by both.
 */
export function createProblemHandler(deps: { logger: Logger; known?: ProblemMapper }) {
  const known = deps.known ?? (() => undefined);
  return new Elysia({ name: "error-handler" }).onError({ as: "global" }, ({ code, error, set, request }) => {
    const body = toProblem(code, error, known, deps.logger, request);
    set.status = body.status;
    set.headers["content-type"] = PROBLEM_CONTENT_TYPE;
    if (body.status === 503) set.headers["retry-after"] ??= "2";
    return JSON.stringify({ ...body, instance: `urn:request:${requestIdOf(request)}` });
  });
}
