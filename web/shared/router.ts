/**
 * Path routing under a console's base (`/admin`, `/account`): the server answers every path below
 * it with the same page, and links inside it change the address without a reload.
 */
import { useEffect, useState } from "preact/hooks";

export interface Route<P extends string = string> {
  readonly pattern: P;
  readonly params: Readonly<Record<string, string>>;
}

let base = "";

export function setBase(path: string) {
  base = path;
}

export const href = (path: string) => `${base}${path === "/" ? "" : path}`;

/** The path below the base, without the query. */
export const currentPath = () => location.pathname.slice(base.length) || "/";

export function navigate(path: string, options: { replace?: boolean } = {}) {
  const target = href(path);
  if (options.replace) history.replaceState(null, "", target);
  else history.pushState(null, "", target);
  window.dispatchEvent(new PopStateEvent("popstate"));
}

/** A typed or pasted address may hold a stray `%`: kept as written rather than breaking the page. */
export function decodeSegment(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** Matches `path` against `/products/:id`-style patterns, first match wins. */
export function match<P extends string>(patterns: readonly P[], path: string): Route<P> | undefined {
  const parts = path.split("/").filter(Boolean);
  for (const pattern of patterns) {
    const wanted = pattern.split("/").filter(Boolean);
    if (wanted.length !== parts.length) continue;
    const params: Record<string, string> = {};
    const fits = wanted.every((segment, i) => {
      const part = parts[i] as string;
      if (segment.startsWith(":")) {
        params[segment.slice(1)] = decodeSegment(part);
        return true;
      }
      return segment === part;
    });
    if (fits) return { pattern, params };
  }
  return undefined;
}

/** The current path, following links, back and forward. */
export function usePath(): string {
  const [path, setPath] = useState(currentPath);
  useEffect(() => {
    const follow = () => setPath(currentPath());
    window.addEventListener("popstate", follow);
    return () => window.removeEventListener("popstate", follow);
  }, []);
  return path;
}

/** Same-console links move without reloading; modified clicks open as the browser would. */
export function interceptLinks(root: HTMLElement) {
  root.addEventListener("click", (event) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
    const anchor = (event.target as Element).closest("a");
    if (!anchor || anchor.target || anchor.origin !== location.origin) return;
    if (anchor.pathname !== base && !anchor.pathname.startsWith(`${base}/`)) return;
    // A jump within the page (the skip link) is the browser's to make.
    if (anchor.hash && anchor.pathname === location.pathname && anchor.search === location.search) return;
    event.preventDefault();
    navigate(anchor.pathname.slice(base.length) + anchor.search || "/");
  });
}
