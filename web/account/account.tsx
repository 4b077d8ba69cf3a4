import { type Pages, startConsole } from "../shared/console.tsx";
import { lazyPage } from "../shared/lazy-page.tsx";
import { api, session } from "./context.ts";
import { ClaimAccount } from "./pages/claim.tsx";
import { ForgotPassword, ResetPassword } from "./pages/password-reset.tsx";
import { SignUp } from "./pages/sign-up.tsx";
import { VerifyEmail } from "./pages/verify-email.tsx";

const Licenses = lazyPage(() => import("./pages/licenses.tsx").then((page) => page.Licenses));
const Notifications = lazyPage(() => import("./pages/notifications.tsx").then((page) => page.Notifications));
const Purchases = lazyPage(() => import("./pages/purchases.tsx").then((page) => page.Purchases));
const Settings = lazyPage(() => import("./pages/settings.tsx").then((page) => page.Settings));
const Subscriptions = lazyPage(() => import("./pages/subscriptions.tsx").then((page) => page.Subscriptions));

const PAGES: Pages = {
  "/": () => <Purchases />,
  "/licenses": () => <Licenses />,
  "/subscriptions": () => <Subscriptions />,
  "/notifications": () => <Notifications />,
  "/settings": () => <Settings />,
};

const LINKS = [
  ["/", "Purchases"],
  ["/licenses", "Licenses"],
  ["/subscriptions", "Subscriptions"],
  ["/notifications", "Notifications"],
  ["/settings", "Settings"],
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
    "/verify-email": () => <VerifyEmail />,
    "/sign-up": () => <SignUp />,
    "/claim": () => <ClaimAccount />,
  },
  forgotPassword: "/forgot-password",
  signUp: "/sign-up",
  links: LINKS,
});
