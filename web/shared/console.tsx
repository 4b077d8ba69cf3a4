import { type ComponentChildren, Fragment, render } from "preact";
import { useEffect } from "preact/hooks";
import type { ApiClient } from "./api.ts";
import { interceptLinks, match, navigate, setBase, usePath } from "./router.ts";
import type { Role, SessionStore } from "./session.ts";
import { Shell, useSession } from "./shell.tsx";
import { SignIn } from "./sign-in.tsx";

export type Pages = Readonly<Record<string, (params: Readonly<Record<string, string>>) => ComponentChildren>>;

export interface ConsoleOptions {
  /** Where it is served: `/admin`, `/account`. */
  readonly base: string;
  readonly title: string;
  readonly api: ApiClient;
  readonly session: SessionStore;
  /** Who may sign in here, and what anyone else is told. */
  readonly role: Role;
  readonly wrongRole: string;
  /** Path patterns (`/products/:id`) and what each shows. */
  readonly pages: Pages;
  /** Pages shown to anyone, signed in or not, in place of sign-in (a password reset). */
  readonly openPages?: Pages;
  /** Where the sign-in form's "Forgot your password?" leads, when the console has that page. */
  readonly forgotPassword?: string;
  /** Where the sign-in form's "Create an account" leads, when the console has that page. */
  readonly signUp?: string;
  readonly links: readonly (readonly [string, string])[];
  /** Where `/` leads, when it is no page of its own. */
  readonly home?: string;
}

function Console(props: { options: ConsoleOptions }) {
  const { api, session, title, home, pages, openPages = {} } = props.options;
  const signedIn = useSession(session);
  const path = usePath();
  useEffect(() => {
    if (home && path === "/") navigate(home, { replace: true });
  }, [path, home]);
  const open = match(Object.keys(openPages), path);
  if (open) return <Fragment key={path}>{openPages[open.pattern]?.(open.params)}</Fragment>;
  if (!signedIn)
    return (
      <SignIn
        api={api}
        session={session}
        requiredRole={props.options.role}
        title={title}
        wrongRole={props.options.wrongRole}
        forgotPassword={props.options.forgotPassword}
        signUp={props.options.signUp}
      />
    );
  const route = match(Object.keys(pages), path);
  return (
    <Shell api={api} title={title} session={signedIn} store={session} links={props.options.links} path={path}>
      {/* Keyed by path: another product's or order's page starts with none of the last one's state. */}
      <Fragment key={path}>{route ? pages[route.pattern]?.(route.params) : <p>No page lives here.</p>}</Fragment>
    </Shell>
  );
}

/** Draws a console into `#app`: sign-in until a user of its role signs in, then its pages. */
export function startConsole(options: ConsoleOptions) {
  setBase(options.base);
  interceptLinks(document.body);
  render(<Console options={options} />, document.getElementById("app") as HTMLElement);
}
