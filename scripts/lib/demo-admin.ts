/**
 * The admin account `npm start` creates outside production when ADMIN_EMAIL and ADMIN_PASSWORD
 * are unset, and the one `npm run demo` signs in with by default. For a local demo only.
 */
export const DEMO_ADMIN_EMAIL = "admin@marketplace.local";
export const DEMO_ADMIN_PASSWORD = "marketplace-demo-admin";
