/** Injectable time: the minute tick and the tests move it. */
export type Clock = () => Date;

/** The structured log lines use cases write (pino satisfies it). */
export interface Log {
  info(fields: Readonly<Record<string, unknown>>, message: string): void;
  warn(fields: Readonly<Record<string, unknown>>, message: string): void;
  error(fields: Readonly<Record<string, unknown>>, message: string): void;
}
