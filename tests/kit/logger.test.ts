import { describe, expect, test } from "bun:test";
import { createLogger } from "../../kit/logger.ts";

const SECRET = "s3cr3t-value-0123456789";

function capture() {
  const lines: string[] = [];
  const logger = createLogger({ level: "info", destination: { write: (line: string) => void lines.push(line) } });
  const parsed = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  return { logger, lines, parsed };
}

describe("the logger's redaction", () => {
  test("secret keys at the top level are censored, whatever their value", () => {
    const { logger, parsed } = capture();
    logger.info(
      {
        password: SECRET,
        token: 42,
        secret: { nested: SECRET },
        authorization: SECRET,
        api_key: SECRET,
        order_id: "o1",
      },
      "m",
    );
    expect(parsed()[0]).toMatchObject({
      password: "[redacted]",
      token: "[redacted]",
      secret: "[redacted]",
      authorization: "[redacted]",
      api_key: "[redacted]",
      order_id: "o1",
      msg: "m",
    });
  });

  test("one level down, and any field's headers.authorization, are censored; the rest is kept", () => {
    const { logger, lines, parsed } = capture();
    logger.info(
      {
        gateway: { name: "gateway_b", api_key: SECRET },
        headers: { authorization: `Bearer ${SECRET}`, accept: "application/json" },
        req: { method: "POST", headers: { authorization: `Bearer ${SECRET}`, host: "shop.example" } },
        list: [SECRET.length],
      },
      "m",
    );
    expect(parsed()[0]).toMatchObject({
      gateway: { name: "gateway_b", api_key: "[redacted]" },
      headers: { authorization: "[redacted]", accept: "application/json" },
      req: { method: "POST", headers: { authorization: "[redacted]", host: "shop.example" } },
      list: [SECRET.length],
    });
    expect(lines.join("")).not.toContain(SECRET);
  });

  test("an error carrying a secret is written as pino writes errors, without it", () => {
    const { logger, lines, parsed } = capture();
    const error = Object.assign(new Error("refused"), { token: SECRET, code: "E_REFUSED" });
    logger.error({ err: error }, "call failed");
    expect(parsed()[0]?.err).toMatchObject({
      type: "Error",
      message: "refused",
      code: "E_REFUSED",
      token: "[redacted]",
    });
    expect(lines.join("")).not.toContain(SECRET);
    expect(error.token).toBe(SECRET);
  });

  test("a child's bindings are censored too", () => {
    const { logger, lines, parsed } = capture();
    logger.child({ token: SECRET, job_id: "7" }).info({ attempt: 1 }, "m");
    expect(parsed()[0]).toMatchObject({ token: "[redacted]", job_id: "7", attempt: 1 });
    expect(lines.join("")).not.toContain(SECRET);
  });

  test("bindings set later are censored too", () => {
    const { logger, lines, parsed } = capture();
    const child = logger.child({ job_id: "7" });
    child.setBindings({ api_key: SECRET });
    child.info("m");
    expect(parsed()[0]).toMatchObject({ job_id: "7", api_key: "[redacted]" });
    expect(lines.join("")).not.toContain(SECRET);
  });

  test("a frozen field, or one whose secret cannot be redefined, is censored without failing the caller", () => {
    const { logger, lines, parsed } = capture();
    const locked = Object.defineProperty(new Error("refused"), "token", { value: SECRET, enumerable: true });
    logger.info({ cfg: Object.freeze({ password: SECRET, region: "eu" }), err: locked }, "m");
    expect(parsed()[0]).toMatchObject({ cfg: { password: "[redacted]", region: "eu" }, err: { token: "[redacted]" } });
    expect(lines.join("")).not.toContain(SECRET);
  });

  test("the logged object is never changed, and a line without secrets is written as it is", () => {
    const { logger, parsed } = capture();
    const fields = { user: { email: "a@example.com", password: SECRET }, order_id: "o1" };
    const plain = { order_id: "o1", status: "active", external_reference: null };
    logger.info(fields, "m");
    logger.info(plain, "m");
    expect(parsed()[0]).toMatchObject({ user: { email: "a@example.com", password: "[redacted]" }, order_id: "o1" });
    expect(fields.user.password).toBe(SECRET);
    expect(parsed()[1]).toMatchObject(plain);
  });
});
