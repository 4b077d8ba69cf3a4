/**
 * `npm start`: the whole system on one machine. The provider simulator and the marketplace run
 * as two processes (as they would in production); signals reach both and the first exit ends both.
 * Once both answer, a banner says where they are and how to make a first purchase.
 */
import { ConfigError, loadConfig } from "../adapters/config/config.ts";
import { environmentName } from "../adapters/secrets/secret-store.ts";
import { DEMO_PROVIDER_CREDENTIALS_REF } from "../adapters/seed/demo-catalog.ts";
import { boolean, integer, text } from "../kit/env-parsers.ts";
import { buildServer } from "./lib/build-server.ts";
import { DEMO_ADMIN_EMAIL, DEMO_ADMIN_PASSWORD } from "./lib/demo-admin.ts";

/**
 * Unless a mail server is configured, the marketplace sends to the simulator's mail sandbox, so
 * the emails of a purchase show up in the browser; an address set in the environment is kept.
 */
function sandboxMail(smtpPort: number): Record<string, string> {
  if (text(process.env, "SMTP_URL") !== undefined) return {};
  return {
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    MAIL_FROM: text(process.env, "MAIL_FROM") ?? "Marketplace <shop@marketplace.localhost>",
    OPS_EMAIL: text(process.env, "OPS_EMAIL") ?? "ops@marketplace.localhost",
  };
}

let config: ReturnType<typeof loadConfig>;
let smtpPort: number;
let mail: Record<string, string>;
let simControls: boolean;
try {
  smtpPort = integer(process.env, "PROVIDER_SIM_SMTP_PORT", 1025, 1, 65535);
  simControls = boolean(process.env, "PROVIDER_SIM_CONTROL", true);
  mail = sandboxMail(smtpPort);
  // Checked as the marketplace will get it, sandbox mail included.
  config = loadConfig({ ...process.env, ...mail });
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exit(1);
}

const random = () => Buffer.from(crypto.getRandomValues(new Uint8Array(24))).toString("hex");

/** The ports must be free before anything starts: otherwise another instance would answer for ours. */
function assertPortFree(port: number, variable: string): void {
  try {
    Bun.listen({ hostname: config.host, port, socket: { data() {} } }).stop(true);
  } catch {
    console.error(
      `start: port ${port} (${variable}) is already in use; stop what holds it (another \`npm start\`?) or set ${variable} to a free port.`,
    );
    process.exit(1);
  }
}
assertPortFree(config.port, "PORT");
assertPortFree(config.providerSimPort, "PROVIDER_SIM_PORT");
assertPortFree(smtpPort, "PROVIDER_SIM_SMTP_PORT");
const simUrl = `http://127.0.0.1:${config.providerSimPort}`;
const marketplaceUrl = `http://127.0.0.1:${config.port}`;
const READY_TIMEOUT_MS = 60_000;

// The marketplace runs bundled, as in production (see scripts/lib/build-server.ts); a fraction of a second.
let serverBundle: string;
try {
  serverBundle = await buildServer();
} catch (error) {
  console.error(`start: ${(error as Error).message}`);
  process.exit(1);
}

// Outside production a known admin account makes the demo usable at once; configured ones win.
const demoAdmin =
  config.admin === undefined && config.nodeEnv !== "production"
    ? { ADMIN_EMAIL: DEMO_ADMIN_EMAIL, ADMIN_PASSWORD: DEMO_ADMIN_PASSWORD }
    : undefined;

/**
 * A gateway with no sandbox key of its own runs against the simulator's sandbox of it, with a
 * generated key and webhook secret that both processes share. Real sandbox keys are left alone.
 */
function sandboxOf(prefix: "GATEWAY_A" | "GATEWAY_B", path: string): Record<string, string> {
  if (process.env[`${prefix}_SANDBOX_API_KEY`]) return {};
  return {
    [`${prefix}_SANDBOX_API_KEY`]: `${prefix.toLowerCase()}_sim_key_${random()}`,
    [`${prefix}_SANDBOX_CLIENT_KEY`]: `${prefix.toLowerCase()}_sim_client_${random().slice(0, 16)}`,
    [`${prefix}_SANDBOX_WEBHOOK_SECRET`]: `${prefix === "GATEWAY_B" ? "whsec_" : "pdl_ntfset_"}${random()}`,
    [`${prefix}_SANDBOX_BASE_URL`]: process.env[`${prefix}_SANDBOX_BASE_URL`] ?? `${simUrl}/${path}`,
  };
}

// One token for both sides: the simulator accepts it, and the seeded point-of-sale product's
// credentials_ref resolves to it through the SECRET_<REF> environment variable.
const simToken = process.env.PROVIDER_SIM_TOKEN ?? random();
const env = {
  ...process.env,
  ...sandboxOf("GATEWAY_A", "gateway_a"),
  ...sandboxOf("GATEWAY_B", "gateway_b"),
  [environmentName(DEMO_PROVIDER_CREDENTIALS_REF)]: simToken,
};
// Each child names itself in /ready or /health: readiness is believed only from our own children.
const instances = { marketplace: `marketplace-${random().slice(0, 12)}`, sim: `provider-sim-${random().slice(0, 12)}` };
const sim = Bun.spawn(["bun", "provider-sim/main.ts"], {
  env: {
    ...env,
    INSTANCE_ID: instances.sim,
    PROVIDER_SIM_PORT: String(config.providerSimPort),
    PROVIDER_SIM_SMTP_PORT: String(smtpPort),
    PROVIDER_SIM_TOKEN: simToken,
    PROVIDER_SIM_CONTROL: String(simControls),
    PROVIDER_SIM_MARKETPLACE_URL: process.env.PROVIDER_SIM_MARKETPLACE_URL ?? `http://127.0.0.1:${config.port}`,
  },
  stdio: ["ignore", "inherit", "inherit"],
});
const marketplace = Bun.spawn(["bun", serverBundle], {
  // The demo's provider simulator and gateway sandboxes listen on loopback.
  env: { ALLOW_PRIVATE_PROVIDER_URLS: "true", ...env, ...mail, ...demoAdmin, INSTANCE_ID: instances.marketplace },
  stdio: ["ignore", "inherit", "inherit"],
});
const children = [marketplace, sim];

let stopping = false;
const stopAll = (signal: NodeJS.Signals) => {
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill(signal);
};
process.on("SIGINT", () => stopAll("SIGINT"));
process.on("SIGTERM", () => stopAll("SIGTERM"));
// `npm start` puts a shell between npm and this process that dies on SIGTERM without passing it on;
// when the parent goes away, stop as if signalled rather than leave both servers running.
const parentPid = process.ppid;
setInterval(() => {
  if (process.ppid !== parentPid && !stopping) stopAll("SIGTERM");
}, 1_000).unref();

/** Whether `url` answers 200 naming `instance`: our own child, not whatever holds the port. */
const answersAs = (url: string, instance: string) =>
  fetch(url, { signal: AbortSignal.timeout(2_000) }).then(
    async (response) =>
      response.status === 200 && ((await response.json()) as { instance?: string }).instance === instance,
    () => false,
  );

/** True once every child is ready; false when a child exits, a signal arrives or time runs out. */
async function allReady(checks: [url: string, instance: string][]): Promise<boolean> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  const pending = new Map(checks);
  while (pending.size > 0) {
    if (stopping || children.some((child) => child.exitCode !== null) || Date.now() > deadline) return false;
    for (const [url, instance] of pending) {
      if (await answersAs(url, instance)) pending.delete(url);
    }
    if (pending.size > 0) await Bun.sleep(250);
  }
  return true;
}

function banner(): string {
  const json = "-H 'content-type: application/json' -d @-";
  return [
    "",
    "Marketplace is up.",
    `  marketplace         ${marketplaceUrl}`,
    `  admin console       ${marketplaceUrl}/admin`,
    `  customer account    ${marketplaceUrl}/account`,
    `  API docs            ${marketplaceUrl}/openapi`,
    `  provider simulator  ${simUrl}  (point-of-sale provider and both payment gateway sandboxes)`,
    ...(mail.SMTP_URL && simControls
      ? [`  mailbox             ${simUrl}/__sim/mail  (every email the marketplace sends)`]
      : []),
    ...(demoAdmin ? [`  demo admin          ${demoAdmin.ADMIN_EMAIL} / ${demoAdmin.ADMIN_PASSWORD}`] : []),
    "",
    "A first purchase by hand (curl and jq):",
    `  MP=${marketplaceUrl}; SIM=${simUrl}`,
    `  TOKEN=$(jq -nc --arg email "ada-$RANDOM@example.com" '{email: $email, password: "correct-horse", name: "Ada"}' \\`,
    `    | curl -s $MP/api/auth/register ${json} | jq -r .token)`,
    "  PRODUCT=$(curl -s $MP/api/products/tillpoint-pos | jq -r .id)",
    `  SESSION=$(jq -nc --arg id "$PRODUCT" '{items: [{product_id: $id, variant: "monthly"}], payment_gateway: "gateway_a"}' \\`,
    `    | curl -s $MP/api/checkout/create -H "authorization: Bearer $TOKEN" ${json} | jq -r .checkout.session_id)`,
    "  curl -s -X POST $SIM/checkout/gateway_a/$SESSION/pay | jq    # the sandbox's Pay button, scripted",
    '  curl -s $MP/api/dashboard -H "authorization: Bearer $TOKEN" | jq',
    "",
    "Or buy every product through both gateways: npm run demo",
    "",
  ].join("\n");
}

void allReady([
  [`${marketplaceUrl}/ready`, instances.marketplace],
  [`${simUrl}/health`, instances.sim],
]).then((ready) => {
  if (ready) console.log(banner());
  else if (!stopping && children.every((child) => child.exitCode === null)) {
    console.error(`start: not ready after ${READY_TIMEOUT_MS / 1000} s (${marketplaceUrl}/ready, ${simUrl}/health)`);
  }
});

await Promise.race(children.map((child) => child.exited));
const signalled = stopping;
if (!signalled) stopAll("SIGTERM");
const codes = await Promise.all(children.map((child) => child.exited));
// Stopped by a signal: 0 when both stopped cleanly. Otherwise a child ended on its own: always a failure.
const failed = codes.find((code) => code !== 0);
process.exit(signalled ? (failed ?? 0) : failed || 1);
