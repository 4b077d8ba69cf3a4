import { render } from "preact";
import { interceptLinks, setBase, usePath } from "../shared/router.ts";
import { Shell, useSession } from "../shared/shell.tsx";
import { SignIn } from "../shared/sign-in.tsx";
import { api, session } from "./context.ts";

const LINKS = [["/", "Purchases"]] as const;

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
  return (
    <Shell api={api} title="Your account" session={signedIn} store={session} links={LINKS} path={path}>
      <h1>Purchases</h1>
    </Shell>
  );
}

setBase("/account");
interceptLinks(document.body);
render(<Account />, document.getElementById("app") as HTMLElement);
