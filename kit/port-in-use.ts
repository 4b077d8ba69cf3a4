/**
 * The one line a server prints when its port is taken, instead of a stack trace: which port, and
 * what to do. Undefined when `error` is anything else.
 */
export function portInUseMessage(error: unknown, port: number, variable: string): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (code !== "EADDRINUSE") return undefined;
  return `port ${port} (${variable}) is already in use; stop what holds it or set ${variable} to a free port.`;
}
