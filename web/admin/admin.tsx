import { type Pages, startConsole } from "../shared/console.tsx";
import { lazyPage } from "../shared/lazy-page.tsx";
import { api, session } from "./context.ts";

const ApiKeys = lazyPage(() => import("./pages/api-keys.tsx").then((page) => page.ApiKeys));
const DeadJobs = lazyPage(() => import("./pages/dead-jobs.tsx").then((page) => page.DeadJobs));
const Discounts = lazyPage(() => import("./pages/discounts.tsx").then((page) => page.Discounts));
const Fulfillments = lazyPage(() => import("./pages/fulfillments.tsx").then((page) => page.Fulfillments));
const Gateways = lazyPage(() => import("./pages/gateways.tsx").then((page) => page.Gateways));
const LicensePage = lazyPage(() => import("./pages/license-page.tsx").then((page) => page.LicensePage));
const Licenses = lazyPage(() => import("./pages/licenses.tsx").then((page) => page.Licenses));
const ManualTasks = lazyPage(() => import("./pages/manual-tasks.tsx").then((page) => page.ManualTasks));
const OrderPage = lazyPage(() => import("./pages/order-page.tsx").then((page) => page.OrderPage));
const Orders = lazyPage(() => import("./pages/orders.tsx").then((page) => page.Orders));
const Overview = lazyPage(() => import("./pages/overview.tsx").then((page) => page.Overview));
const ProductEditorPage = lazyPage(() =>
  import("./pages/product-editor-page.tsx").then((page) => page.ProductEditorPage),
);
const ProductPage = lazyPage(() => import("./pages/product-page.tsx").then((page) => page.ProductPage));
const Products = lazyPage(() => import("./pages/products.tsx").then((page) => page.Products));
const WebhookEndpointPage = lazyPage(() =>
  import("./pages/webhook-endpoint-page.tsx").then((page) => page.WebhookEndpointPage),
);
const Webhooks = lazyPage(() => import("./pages/webhooks.tsx").then((page) => page.Webhooks));

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
