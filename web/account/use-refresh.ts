import { useEffect } from "preact/hooks";

/** Calls `reload` every `ms` while `active`, stopping as soon as it is not. */
export function useRefreshWhile(active: boolean, reload: () => void, ms = 3000) {
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(reload, ms);
    return () => clearInterval(timer);
  }, [active, reload, ms]);
}
