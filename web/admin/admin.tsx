import { render } from "preact";
import { useEffect } from "preact/hooks";
import { interceptLinks, match, navigate, setBase, usePath } from "../shared/router.ts";
import { Shell, useSession } from "../shared/shell.tsx";
import { SignIn } from "../shared/sign-in.tsx";
import { api, session } from "./context.ts";
import { DeadJobs } from "./pages/dead-jobs.tsx";
import { Fulfillments } from "./pages/fulfillments.tsx";
import { Gateways } from "./pages/gateways.tsx";
import { ManualTasks } from "./pages/manual-tasks.tsx";
import { OrderPage } from "./pages/order-page.tsx";
import { Orders } from "./pages/orders.tsx";
import { ProductEditorPage } from "./pages/product-editor-page.tsx";
import { ProductPage } from "./pages/product-page.tsx";
import { Products } from "./pages/products.tsx";

type Params = Readonly<Record<string, string>>;

const PAGES = {
  "/products": () => <Products />,
  "/products/new": () => <ProductEditorPage />,
  "/products/:id": (params: Params) => <ProductPage id={params.id as string} />,
  "/gateways": () => <Gateways />,
  "/fulfillments": () => <Fulfillments />,
  "/manual-tasks": () => <ManualTasks />,
  "/jobs": () => <DeadJobs />,
  "/orders": () => <Orders />,
  "/orders/:id": (params: Params) => <OrderPage id={params.id as string} />,
} as const;

const LINKS = [
  ["/products", "Products"],
  ["/gateways", "Gateways"],
  ["/fulfillments", "Fulfillments"],
  ["/manual-tasks", "Manual tasks"],
  ["/jobs", "Dead jobs"],
  ["/orders", "Orders"],
] as const;

function Admin() {
  const signedIn = useSession(session);
  const path = usePath();
  useEffect(() => {
    if (path === "/") navigate("/products", { replace: true });
  }, [path]);
  if (!signedIn)
    return (
      <SignIn
        api={api}
        session={session}
        requiredRole="admin"
        title="Admin console"
        wrongRole="This console is for admins. Customers sign in at /account."
      />
    );
  const route = match(Object.keys(PAGES) as (keyof typeof PAGES)[], path);
  return (
    <Shell api={api} title="Marketplace admin" session={signedIn} store={session} links={LINKS} path={path}>
      {route ? PAGES[route.pattern](route.params) : <p>No page lives here.</p>}
    </Shell>
  );
}

setBase("/admin");
interceptLinks(document.body);
render(<Admin />, document.getElementById("app") as HTMLElement);
