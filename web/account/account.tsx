import { type Pages, startConsole } from "../shared/console.tsx";
import { api, session } from "./context.ts";
import { ClaimAccount } from "./pages/claim.tsx";
import { Licenses } from "./pages/licenses.tsx";
import { Notifications } from "./pages/notifications.tsx";
import { ForgotPassword, ResetPassword } from "./pages/password-reset.tsx";
import { Purchases } from "./pages/purchases.tsx";
import { Settings } from "./pages/settings.tsx";
import { SignUp } from "./pages/sign-up.tsx";
import { Subscriptions } from "./pages/subscriptions.tsx";
import { VerifyEmail } from "./pages/verify-email.tsx";

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
