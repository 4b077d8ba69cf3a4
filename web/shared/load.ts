import { useCallback, useEffect, useState } from "preact/hooks";

export type Loading<T> =
  | { readonly state: "loading" }
  /** `stale`: what the last successful load gave, still worth showing beside the failure. */
  | { readonly state: "failed"; readonly error: unknown; readonly stale?: T }
  | { readonly state: "loaded"; readonly data: T };

/** The data to show: loaded, or kept from before a failed reload. */
export const dataOf = <T>(result: Loading<T>): T | undefined =>
  result.state === "loaded" ? result.data : result.state === "failed" ? result.stale : undefined;

/**
 * Runs `load` when `deps` change, showing "loading" meanwhile (other filters, other data). `reload`
 * runs it again for the same `deps` and keeps the current data on screen until the answer comes,
 * and beside the failure if it fails.
 */
export function useLoad<T>(load: () => Promise<T>, deps: readonly unknown[]) {
  const [result, setResult] = useState<Loading<T>>({ state: "loading" });
  const [round, setRound] = useState(0);
  useEffect(() => {
    setResult({ state: "loading" });
  }, deps);
  useEffect(() => {
    let current = true;
    load().then(
      (data) => current && setResult({ state: "loaded", data }),
      (error: unknown) =>
        current &&
        setResult((previous) => {
          const stale = dataOf(previous);
          return stale === undefined ? { state: "failed", error } : { state: "failed", error, stale };
        }),
    );
    return () => {
      current = false;
    };
  }, [...deps, round]);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  return { result, reload };
}
