import { useCallback, useEffect, useState } from "preact/hooks";

export type Loading<T> =
  | { readonly state: "loading" }
  | { readonly state: "failed"; readonly error: unknown }
  | { readonly state: "loaded"; readonly data: T };

/** Runs `load` when `deps` change; `reload` runs it again (after an action changed the data). */
export function useLoad<T>(load: () => Promise<T>, deps: readonly unknown[]) {
  const [result, setResult] = useState<Loading<T>>({ state: "loading" });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let current = true;
    setResult((previous) => (previous.state === "loaded" ? previous : { state: "loading" }));
    load().then(
      (data) => current && setResult({ state: "loaded", data }),
      (error: unknown) => current && setResult({ state: "failed", error }),
    );
    return () => {
      current = false;
    };
  }, [...deps, round]);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  return { result, reload };
}
