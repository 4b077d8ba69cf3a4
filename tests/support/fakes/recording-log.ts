import type { Log } from "../../../application/shared/clock-and-log.ts";

export interface LogLine {
  readonly level: "info" | "warn" | "error";
  readonly fields: Readonly<Record<string, unknown>>;
  readonly message: string;
}

/** A log that keeps its lines, so a test can see what a use case reported. */
export function createRecordingLog(): Log & { readonly lines: LogLine[]; messages(): string[] } {
  const lines: LogLine[] = [];
  const write = (level: LogLine["level"]) => (fields: Readonly<Record<string, unknown>>, message: string) => {
    lines.push({ level, fields, message });
  };
  return {
    lines,
    messages: () => lines.map((line) => line.message),
    info: write("info"),
    warn: write("warn"),
    error: write("error"),
  };
}
