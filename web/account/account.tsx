import { type Pages, startConsole } from "../shared/console.tsx";
import { lazyPage } from "../shared/lazy-page.tsx";
import { api, session } from "./context.ts";

const ClaimAccount = lazyPage(() => import("./pages/claim.tsx").then((page) => page.ClaimAccount));
const Licenses = lazyPage(() => import("./pages/licenses.tsx").then((page) => page.Licenses));
const Notifications = lazyPage(() => import("./pages/notifications.tsx").then((page) => page.Notifications));
const ForgotPassword = lazyPage(() => import("./pages/password-reset.tsx").then((page) => page.ForgotPassword));
const ResetPassword = lazyPage(() => import("./pages/password-reset.tsx").then((page) => page.ResetPassword));
const Purchases = lazyPage(() => import("./pages/purchases.tsx").then((page) => page.Purchases));
const Settings = lazyPage(() => import("./pages/settings.tsx").then((page) => page.Settings));
const SignUp = lazyPage(() => import("./pages/sign-up.tsx").then((page) => page.SignUp));
const Subscriptions = lazyPage(() => import("./pages/subscriptions.tsx").then((page) => page.Subscriptions));
const VerifyEmail = lazyPage(() => import("./pages/verify-email.tsx").then((page) => page.VerifyEmail));

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
