import { useEffect } from "preact/hooks";

/**
 * While `active`, calls `reload` `ms` after each answer (`answered` changes with every answer, good
 * or failed), so a slow answer is waited for rather than overtaken by the next reload.
 */
export function useRefreshWhile(active: boolean, reload: () => void, answered: unknown, ms = 3000) {
  useEffect(() => {
    if (!active) return;
    const timer = setTimeout(reload, ms);
    return () => clearTimeout(timer);
  }, [active, reload, answered, ms]);
}
