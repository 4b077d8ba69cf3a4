import type { ComponentChildren } from "preact";
import { useEffect, useErrorBoundary, useRef, useState } from "preact/hooks";
import type { ApiClient } from "./api.ts";
import { currentPath, href } from "./router.ts";
import type { Session, SessionStore } from "./session.ts";

/** The signed-in session, following sign-in, sign-out and a 401 from anywhere. */
export function useSession(store: SessionStore): Session | undefined {
  const [session, setSession] = useState(store.current);
  useEffect(() => store.subscribe(setSession), [store]);
  return session;
}

/** Header with the console's sections and sign-out, then the page. */
export function Shell(props: {
  title: string;
  api: ApiClient;
  session: Session;
  store: SessionStore;
  links: readonly (readonly [string, string])[];
  path: string;
  children: ComponentChildren;
}) {
  const opened = useRef(false);
  useEffect(() => {
    // After a move within the console, focus goes to the new page, as a page load would put the
    // reader at the top; on the first load the browser's own start (then the skip link) stays.
    if (opened.current) document.getElementById("main")?.focus();
    opened.current = true;
  }, [props.path]);
  const { api } = props;
  useEffect(() => {
    // A token kept from an earlier visit may have expired: asking who it is ends the session on a 401.
    // Unreachable now is no reason to sign out: the page's own calls will say so.
    api.GET("/api/me").catch(() => undefined);
  }, [api]);
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header>
        <strong>{props.title}</strong>
        <nav aria-label="Sections">
          {props.links.map(([path, label]) => (
            <a
              key={path}
              href={href(path)}
              aria-current={currentPath() === path || currentPath().startsWith(`${path}/`) ? "page" : undefined}
            >
              {label}
            </a>
          ))}
        </nav>
        <span class="who">
          {props.session.user.email}{" "}
          <button type="button" onClick={() => props.store.signOut()}>
            Sign out
          </button>
        </span>
      </header>
      <main id="main" tabIndex={-1}>
        <Page path={props.path}>{props.children}</Page>
      </main>
    </>
  );
}

/** A page that throws while drawing says so, and the header stays usable; moving on tries afresh. */
function Page(props: { path: string; children: ComponentChildren }) {
  const [error, reset] = useErrorBoundary();
  // Only a move to another page clears the failure; `error` itself is not a reason to.
  useEffect(() => {
    if (error) reset();
  }, [props.path]);
  if (!error) return <>{props.children}</>;
  return (
    <div role="alert">
      <p class="error">This page could not be shown: {error instanceof Error ? error.message : String(error)}</p>
      <button type="button" onClick={reset}>
        Try again
      </button>
    </div>
  );
}
