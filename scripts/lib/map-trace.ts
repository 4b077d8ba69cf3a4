import { originalPositionFor, TraceMap } from "@jridgewell/trace-mapping";

/** A place in the bundle as a stack trace prints it: `…/marketplace.js:2:31337`. */
const BUNDLE_POSITION = /([^\s()]*?([^/\s()]+\.js)):(\d+):(\d+)/g;

/**
 * Rewrites each position in `trace` that falls in the bundle whose source map is `map` (named by
 * `bundleName`, such as `marketplace.js`) to the source file, line and column it came from; every
 * other position, and a position the map does not cover, is left as it was.
 */
export function mapTrace(trace: string, map: string, bundleName: string): string {
  const traced = new TraceMap(map);
  return trace.replace(BUNDLE_POSITION, (whole, _path: string, file: string, line: string, column: string) => {
    if (file !== bundleName) return whole;
    // Stack traces count columns from 1, source maps from 0.
    const original = originalPositionFor(traced, { line: Number(line), column: Number(column) - 1 });
    if (original.source === null || original.line === null) return whole;
    const name = original.source.replace(/^(\.\.\/)+/, "");
    return `${name}:${original.line}:${original.column + 1}`;
  });
}
