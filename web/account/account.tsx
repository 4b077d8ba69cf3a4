import { type Pages, startConsole } from "../shared/console.tsx";
import { api, session } from "./context.ts";
import { Licenses } from "./pages/licenses.tsx";
import { Notifications } from "./pages/notifications.tsx";
import { ForgotPassword, ResetPassword } from "./pages/password-reset.tsx";
import { Purchases } from "./pages/purchases.tsx";
import { Subscriptions } from "./pages/subscriptions.tsx";

const PAGES: Pages = {
  "/": () => <Purchases />,
  "/licenses": () => <Licenses />,
  "/subscriptions": () => <Subscriptions />,
  "/notifications": () => <Notifications />,
};

const LINKS = [
  ["/", "Purchases"],
  ["/licenses", "Licenses"],
  ["/subscriptions", "Subscriptions"],
  ["/notifications", "Notifications"],
] as const;

startConsole({
  base: "/account",
  title: "Your account",
  api,
  session,
  role: "customer",
  wrongRole: "This is the customer account. Admins sign in at /admin.",
  pages: PAGES,
  openPages: {
    "/forgot-password": () => <ForgotPassword />,
    "/reset-password": () => <ResetPassword />,
  },
  forgotPassword: "/forgot-password",
  links: LINKS,
});
