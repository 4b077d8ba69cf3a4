import { render } from "preact";
import { interceptLinks, match, setBase, usePath } from "../shared/router.ts";
import { Shell, useSession } from "../shared/shell.tsx";
import { SignIn } from "../shared/sign-in.tsx";
import { api, session } from "./context.ts";
import { Licenses } from "./pages/licenses.tsx";
import { Notifications } from "./pages/notifications.tsx";
import { Purchases } from "./pages/purchases.tsx";
import { Subscriptions } from "./pages/subscriptions.tsx";

const PAGES = {
  "/": () => <Purchases />,
  "/licenses": () => <Licenses />,
  "/subscriptions": () => <Subscriptions />,
  "/notifications": () => <Notifications />,
} as const;

const LINKS = [
  ["/", "Purchases"],
  ["/licenses", "Licenses"],
  ["/subscriptions", "Subscriptions"],
  ["/notifications", "Notifications"],
] as const;

function Account() {
  const signedIn = useSession(session);
  const path = usePath();
  if (!signedIn)
    return (
      <SignIn
        api={api}
        session={session}
        requiredRole="customer"
        title="Your account"
        wrongRole="This is the customer account. Admins sign in at /admin."
      />
    );
  const route = match(Object.keys(PAGES) as (keyof typeof PAGES)[], path);
  return (
    <Shell api={api} title="Your account" session={signedIn} store={session} links={LINKS} path={path}>
      {route ? PAGES[route.pattern]() : <p>No page lives here.</p>}
    </Shell>
  );
}

setBase("/account");
interceptLinks(document.body);
render(<Account />, document.getElementById("app") as HTMLElement);
