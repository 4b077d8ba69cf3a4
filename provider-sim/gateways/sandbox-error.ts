/** A failure a sandbox answers in its own gateway's error shape rather than as problem+json. */
export abstract class SandboxError extends Error {
  abstract readonly status: number;
  abstract readonly code: string | undefined;
  abstract body(requestId: string): unknown;
}
