import { describe, expect, test } from "bun:test";
import type { ReceivedMail } from "../../../provider-sim/mail/received-mail.ts";
import { expectProblemShape } from "../../support/http.ts";
import { aMessage, sendCode, useMailSims } from "./harness.ts";

const HOSTILE_SUBJECT = `<script>alert("subject")</script> & 'quotes'`;
const HOSTILE_NAME = `"><script>alert(1)</script>`;

const mailSim = useMailSims();

async function withHostileMail() {
  const sim = await mailSim();
  const hostile = aMessage({
    from: { name: HOSTILE_NAME, address: "evil@example.com" },
    subject: HOSTILE_SUBJECT,
    html: `<p onclick="steal()">Hi</p><script>document.cookie</script>`,
  });
  expect(await sendCode(sim.transport(), hostile)).toBe(250);
  const [mail] = await sim.inbox();
  return { sim, mail: mail as ReceivedMail };
}

describe("/__sim/mail", () => {
  test("the HTML list escapes every value and links each message; the JSON keeps them intact", async () => {
    const { sim, mail } = await withHostileMail();
    expect(await sendCode(sim.transport(), aMessage({ subject: "newer" }))).toBe(250);

    const page = await sim.call("GET", "/__sim/mail", { headers: { accept: "text/html,*/*" } });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toStartWith("text/html");
    expect(page.headers.get("content-security-policy")).toContain("default-src 'none'");
    const html = page.body as string;
    expect(html).not.toContain("<script>");
    expect(html).toContain("&lt;script&gt;alert(&quot;subject&quot;)&lt;/script&gt; &amp; &#x27;quotes&#x27;");
    expect(html).toContain(`&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt; &lt;evil@example.com&gt;`);
    expect(html).toContain(`href="/__sim/mail/${mail.id}"`);
    expect(html.indexOf("newer")).toBeLessThan(html.indexOf("&lt;script&gt;alert(&quot;subject"));

    for (const request of [{ path: "/__sim/mail?format=json" }, { path: "/__sim/mail", accept: "application/json" }]) {
      const json = await sim.call("GET", request.path, { headers: request.accept ? { accept: request.accept } : {} });
      expect(json.headers.get("content-type")).toStartWith("application/json");
      const [newer, hostile] = json.body.items as ReceivedMail[];
      expect(newer?.subject).toBe("newer");
      expect(hostile).toMatchObject({
        id: mail.id,
        subject: HOSTILE_SUBJECT,
        from: `${HOSTILE_NAME} <evil@example.com>`,
        to: ["ada@example.com"],
      });
    }
  });

  test("one message: an escaped page framing its HTML in a sandbox, or JSON", async () => {
    const { sim, mail } = await withHostileMail();
    const page = await sim.call("GET", `/__sim/mail/${mail.id}`);
    expect(page.status).toBe(200);
    const html = page.body as string;
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("onclick");
    expect(html).toContain(`<iframe sandbox title="HTML part" src="/__sim/mail/${mail.id}/html">`);
    expect(html).toContain("<pre>Open https://pos.test/w/1</pre>");

    const json = await sim.call("GET", `/__sim/mail/${mail.id}`, { headers: { accept: "application/json" } });
    expect(json).toMatchObject({ status: 200, body: { id: mail.id, subject: HOSTILE_SUBJECT, text: mail.text } });
    expect((await sim.call("GET", `/__sim/mail/${mail.id}?format=json`)).body).toEqual(json.body);
  });

  test("/{id}/html serves the message's own HTML under a sandboxing Content-Security-Policy", async () => {
    const { sim, mail } = await withHostileMail();
    const response = await sim.call("GET", `/__sim/mail/${mail.id}/html`);
    expect(response.status).toBe(200);
    expect(response.body).toBe(mail.html);
    const policy = (response.headers.get("content-security-policy") ?? "").split(";").map((part) => part.trim());
    expect(policy).toContain("sandbox");
    expect(policy).toContain("default-src 'none'");
    expect(policy.some((directive) => directive.startsWith("script-src"))).toBe(false);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");

    expect(await sendCode(sim.transport(), aMessage({ html: undefined, subject: "text only" }))).toBe(250);
    const [textOnly] = await sim.inbox();
    expectProblemShape(await sim.call("GET", `/__sim/mail/${textOnly?.id}/html`), 404, "MAIL_HAS_NO_HTML");
  });

  test("an unknown id is 404 problem+json, whichever view is asked for", async () => {
    const sim = await mailSim();
    for (const path of ["/__sim/mail/mail_unknown", "/__sim/mail/mail_unknown?format=json", "/__sim/mail/x/html"]) {
      expectProblemShape(await sim.call("GET", path), 404, "MAIL_NOT_FOUND");
    }
  });

  test("DELETE empties the box; /__sim/reset empties it and drops queued refusals", async () => {
    const sim = await mailSim();
    const transport = sim.transport();
    for (const subject of ["one", "two"]) expect(await sendCode(transport, aMessage({ subject }))).toBe(250);
    expect(await sim.call("DELETE", "/__sim/mail")).toMatchObject({ status: 200, body: { cleared: 2 } });
    expect(await sim.inbox()).toEqual([]);
    expect((await sim.call("GET", "/__sim/mail")).body).toContain("No mail yet");

    expect(await sendCode(transport, aMessage())).toBe(250);
    await sim.call("POST", "/__sim/mail/faults", { body: { count: 5 } });
    expect((await sim.call("POST", "/__sim/reset")).status).toBe(200);
    expect(await sim.inbox()).toEqual([]);
    expect(await sendCode(transport, aMessage({ subject: "after reset" }))).toBe(250);
    expect((await sim.inbox()).map((mail) => mail.subject)).toEqual(["after reset"]);
  });

  test("bad fault bodies and formats are 422, malformed JSON 400", async () => {
    const sim = await mailSim();
    for (const body of [
      {},
      { count: 0 },
      { count: 1, code: 250 },
      { count: 1, code: "451" },
      { count: 1, stage: "rcpt" },
    ]) {
      expectProblemShape(await sim.call("POST", "/__sim/mail/faults", { body }), 422, "VALIDATION_FAILED");
    }
    expectProblemShape(await sim.call("GET", "/__sim/mail?format=xml"), 422, "VALIDATION_FAILED");
    const malformed = await sim.call("POST", "/__sim/mail/faults", {
      rawBody: "{count",
      headers: { "content-type": "application/json" },
    });
    expectProblemShape(malformed, 400, "MALFORMED_JSON");
  });

  test("are 404 like every control when PROVIDER_SIM_CONTROL is not true", async () => {
    const sim = await mailSim({ controls: false });
    expectProblemShape(await sim.call("GET", "/__sim/mail"), 404, "ROUTE_NOT_FOUND");
    expectProblemShape(await sim.call("DELETE", "/__sim/mail"), 404, "ROUTE_NOT_FOUND");
    expectProblemShape(await sim.call("POST", "/__sim/mail/faults", { body: { count: 1 } }), 404, "ROUTE_NOT_FOUND");
  });
});
