import { describe, expect, test } from "bun:test";
import { parseEmailTemplate, renderEmail } from "../../../application/mail/templates.ts";

const SOURCE = `subject: Your {{product}} is ready
--- text
Hello {{name}},
see {{link}}
--- html
<p>Hello {{ name }}, <a href="{{link}}">open</a></p>
`;

describe("email templates", () => {
  test("a file gives a subject, a text part and an HTML part", () => {
    expect(parseEmailTemplate("t", SOURCE)).toEqual({
      subject: "Your {{product}} is ready",
      text: "Hello {{name}},\nsee {{link}}\n",
      html: '<p>Hello {{ name }}, <a href="{{link}}">open</a></p>\n',
    });
    expect(parseEmailTemplate("t", SOURCE.replace(/\n/g, "\r\n")).text).toBe("Hello {{name}},\nsee {{link}}\n");
  });

  test.each([
    ["no subject", SOURCE.replace(/^subject:.*\n/, "")],
    ["no text", SOURCE.replace("--- text", "--- txt")],
    ["no html", SOURCE.replace(/--- html[\s\S]*/, "")],
    ["an empty file", ""],
  ])("%s is refused with the template's name", (_, source) => {
    expect(() => parseEmailTemplate("fulfillment.ready", source)).toThrow(/fulfillment\.ready/);
  });

  test("values are escaped in HTML, kept in text, and cannot break the subject into headers", () => {
    const rendered = renderEmail(parseEmailTemplate("t", SOURCE), {
      product: "Pro\r\nBcc: victim@example.com",
      name: `<script>alert("x")</script> & 'co'`,
      link: `https://shop.example/orders/1?a=1&b="2"`,
    });
    expect(rendered.subject).toBe("Your Pro Bcc: victim@example.com is ready");
    expect(rendered.text).toBe(
      `Hello <script>alert("x")</script> & 'co',\nsee https://shop.example/orders/1?a=1&b="2"\n`,
    );
    expect(rendered.html).toBe(
      '<p>Hello &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;co&#39;, <a href="https://shop.example/orders/1?a=1&amp;b=&quot;2&quot;">open</a></p>\n',
    );
  });

  test("a placeholder without a value fails for good, naming it; a value looking like a placeholder is not filled again", () => {
    const template = parseEmailTemplate("t", SOURCE);
    expect(() => renderEmail(template, { product: "p", name: "n" })).toThrow(/\{\{link\}\}/);
    const rendered = renderEmail(template, { product: "p", name: "{{link}}", link: "L" });
    expect(rendered.text).toStartWith("Hello {{link}},");
    try {
      renderEmail(template, {});
    } catch (error) {
      expect((error as { transient?: boolean }).transient).toBe(false);
    }
  });

  test("a very long subject is cut", () => {
    const rendered = renderEmail(parseEmailTemplate("t", SOURCE), {
      product: "x".repeat(10_000),
      name: "n",
      link: "l",
    });
    expect(rendered.subject.length).toBe(250);
  });
});
