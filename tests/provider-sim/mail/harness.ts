import { afterEach } from "bun:test";
import { connect } from "node:net";
import nodemailer, { type Transporter } from "nodemailer";
import type { ReceivedMail } from "../../../provider-sim/mail/received-mail.ts";
import { createTestSim } from "../harness.ts";

/** The simulator in-process with its real SMTP listener on a free loopback port. */
export async function startMailSim(options: { mailboxCapacity?: number; controls?: boolean } = {}) {
  const sim = createTestSim(
    { PROVIDER_SIM_SMTP_PORT: "0", HOST: "127.0.0.1", PROVIDER_SIM_CONTROL: String(options.controls ?? true) },
    options.mailboxCapacity === undefined ? {} : { mailboxCapacity: options.mailboxCapacity },
  );
  const smtp = await sim.listenForMail();
  const smtpUrl = `smtp://127.0.0.1:${smtp.port}`;
  return {
    ...sim,
    smtp,
    smtpUrl,
    /** A nodemailer transport to the sandbox, logging in (with `method`) when `auth` is given. */
    transport: (auth?: { user: string; pass: string }, method?: "PLAIN" | "LOGIN") =>
      nodemailer.createTransport({
        host: "127.0.0.1",
        port: smtp.port,
        secure: false,
        ...(auth ? { auth } : {}),
        ...(method ? { authMethod: method } : {}),
      }),
    async inbox(): Promise<ReceivedMail[]> {
      return (await sim.call<{ items: ReceivedMail[] }>("GET", "/__sim/mail?format=json")).body.items;
    },
  };
}

export type MailSim = Awaited<ReturnType<typeof startMailSim>>;

/** A message nodemailer builds, with overrides. */
export function aMessage(overrides: Record<string, unknown> = {}) {
  return {
    from: "Marketplace <shop@localhost>",
    to: "ada@example.com",
    subject: "Your workspace is ready",
    text: "Open https://pos.test/w/1",
    html: "<p>Open <a href='https://pos.test/w/1'>your workspace</a></p>",
    ...overrides,
  };
}

/** The SMTP reply code of a send: 250 when accepted, the server's code when refused. */
export function sendCode(transport: Transporter, message: Record<string, unknown>): Promise<number> {
  return transport.sendMail(message).then(
    (info: { response?: string }) => Number.parseInt(info.response ?? "", 10),
    (error: { responseCode?: number }) => error.responseCode ?? 0,
  );
}

/**
 * Writes `lines` to a raw connection one at a time, each after the reply to the one before (or
 * after a moment, when the server stays silent), and returns every reply the server sent.
 */
export async function rawSmtp(port: number, lines: readonly (string | Uint8Array)[]): Promise<string> {
  const socket = connect(port, "127.0.0.1");
  let replies = "";
  let closed = false;
  socket.on("data", (chunk) => {
    replies += chunk.toString("latin1");
  });
  socket.on("error", () => {});
  socket.on("close", () => {
    closed = true;
  });
  const replied = async (after: number) => {
    for (const deadline = Date.now() + 1_000; Date.now() < deadline && !closed; ) {
      if (replies.length > after && replies.endsWith("\r\n")) return;
      await Bun.sleep(10);
    }
  };
  await replied(0);
  for (const line of lines) {
    if (closed) break;
    const before = replies.length;
    socket.write(line);
    await replied(before);
  }
  socket.destroy();
  return replies;
}

/** Starts mail sandboxes for a test file's tests, each closed after its test. */
export function useMailSims() {
  const running: MailSim[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((sim) => sim.smtp.close()));
  });
  return async (options: Parameters<typeof startMailSim>[0] = {}) => {
    const sim = await startMailSim(options);
    running.push(sim);
    return sim;
  };
}
