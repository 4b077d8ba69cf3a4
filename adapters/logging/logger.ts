import pino, { type DestinationStream, type Logger } from "pino";

export type { Logger } from "pino";

/**
 * Paths scrubbed from every line, whatever logs them: credentials, tokens and secret values
 * must never reach a log sink.
 */
export const REDACTED_PATHS = [
  "password",
  "*.password",
  "token",
  "*.token",
  "secret",
  "*.secret",
  "authorization",
  "*.authorization",
  "headers.authorization",
  "req.headers.authorization",
  "*.headers.authorization",
  "api_key",
  "*.api_key",
];

export function createLogger(options: { level: string; name?: string; destination?: DestinationStream }): Logger {
  return pino(
    {
      level: options.level,
      name: options.name,
      base: undefined,
      redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    options.destination,
  );
}
