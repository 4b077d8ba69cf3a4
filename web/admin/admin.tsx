import { type Pages, startConsole } from "../shared/console.tsx";
import { api, session } from "./context.ts";
import { ApiKeys } from "./pages/api-keys.tsx";
import { DeadJobs } from "./pages/dead-jobs.tsx";
import { Discounts } from "./pages/discounts.tsx";
import { Fulfillments } from "./pages/fulfillments.tsx";
import { Gateways } from "./pages/gateways.tsx";
import { LicensePage } from "./pages/license-page.tsx";
import { Licenses } from "./pages/licenses.tsx";
import { ManualTasks } from "./pages/manual-tasks.tsx";
import { OrderPage } from "./pages/order-page.tsx";
import { Orders } from "./pages/orders.tsx";
import { Overview } from "./pages/overview.tsx";
import { ProductEditorPage } from "./pages/product-editor-page.tsx";
import { ProductPage } from "./pages/product-page.tsx";
import { Products } from "./pages/products.tsx";
import { WebhookEndpointPage } from "./pages/webhook-endpoint-page.tsx";
import { Webhooks } from "./pages/webhooks.tsx";

const PAGES: Pages = {
  "/overview": () => <Overview />,
  "/products": () => <Products />,
  "/products/new": () => <ProductEditorPage />,
  "/products/:id": (params) => <ProductPage id={params.id as string} />,
  "/gateways": () => <Gateways />,
  "/fulfillments": () => <Fulfillments />,
  "/manual-tasks": () => <ManualTasks />,
  "/jobs": () => <DeadJobs />,
  "/orders": () => <Orders />,
  "/orders/:id": (params) => <OrderPage id={params.id as string} />,
  "/licenses": () => <Licenses />,
  "/discounts": () => <Discounts />,
  "/licenses/:id": (params) => <LicensePage id={params.id as string} />,
  "/api-keys": () => <ApiKeys />,
  "/webhooks": () => <Webhooks />,
  "/webhooks/:id": (params) => <WebhookEndpointPage id={params.id as string} />,
};

const LINKS = [
  ["/overview", "Overview"],
  ["/products", "Products"],
  ["/gateways", "Gateways"],
  ["/fulfillments", "Fulfillments"],
  ["/manual-tasks", "Manual tasks"],
  ["/jobs", "Dead jobs"],
  ["/orders", "Orders"],
  ["/licenses", "Licenses"],
  ["/discounts", "Discounts"],
  ["/api-keys", "API keys"],
  ["/webhooks", "Webhooks"],
] as const;

startConsole({
  base: "/admin",
  title: "Marketplace admin",
  api,
  session,
  role: "admin",
  wrongRole: "This console is for admins. Customers sign in at /account.",
  pages: PAGES,
  links: LINKS,
  home: "/overview",
});
