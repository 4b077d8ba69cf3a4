import { appendFileSync } from "node:fs";
import { join } from "node:path";
import pino, { type DestinationStream } from "pino";

/**
 * `npm test` sets `TEST_LOG_DIR` and scans everything written there for secrets once the run ends
 * (scripts/lib/log-scan.ts). Marketplaces built by the tests log into it at debug level, and the
 * processes they start leave their output there.
 */
const directory = process.env.TEST_LOG_DIR || undefined;
let shared: DestinationStream | undefined;

export function testLogDestination(): DestinationStream | undefined {
  if (!directory) return undefined;
  shared ??= pino.destination({ dest: join(directory, `marketplace-${process.pid}.log`), sync: true, mkdir: true });
  return shared;
}

export function keepTestLog(source: string, text: string): void {
  if (directory && text)
    appendFileSync(join(directory, `${source}-${process.pid}.log`), text.endsWith("\n") ? text : `${text}\n`);
}
