import { EmailTemplateInvalid } from "./errors.ts";
import type { RenderedEmail } from "./ports.ts";

/** One email's template: a subject line, a text part and an HTML part, with `{{name}}` placeholders. */
export type EmailTemplateText = RenderedEmail;

const PLACEHOLDER = /\{\{\s*([a-z_][a-z0-9_]*)\s*\}\}/g;
const SECTION = /^--- (text|html)[ \t]*$/m;

/**
 * Reads a template file: a first line `subject: ...`, then a `--- text` section and a `--- html`
 * section, each running to the next marker or the end.
 */
export function parseEmailTemplate(name: string, source: string): EmailTemplateText {
  const [head = "", ...rest] = source.replace(/\r\n/g, "\n").split(SECTION);
  const subject = /^subject:[ \t]*(.+)$/m.exec(head)?.[1]?.trim();
  const sections = new Map<string, string>();
  for (let i = 0; i + 1 < rest.length; i += 2) sections.set(rest[i] ?? "", (rest[i + 1] ?? "").trim());
  const text = sections.get("text");
  const html = sections.get("html");
  if (!subject || !text || !html) {
    throw new EmailTemplateInvalid(
      `email template ${name} needs a subject line, a "--- text" and a "--- html" section`,
    );
  }
  return { subject, text: `${text}\n`, html: `${html}\n` };
}

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

export const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] ?? char);

function fill(template: string, data: Readonly<Record<string, string>>, encode: (value: string) => string): string {
  return template.replace(PLACEHOLDER, (_, key: string) => {
    const value = data[key];
    if (value === undefined) throw new EmailTemplateInvalid(`the email has no value for {{${key}}}`);
    return encode(value);
  });
}

/** Fills a template: values escaped in the HTML part, line breaks folded out of the subject. */
export function renderEmail(template: EmailTemplateText, data: Readonly<Record<string, string>>): RenderedEmail {
  return {
    subject: fill(template.subject, data, (value) => value.replace(/[\r\n\t]+/g, " ")).slice(0, 250),
    text: fill(template.text, data, (value) => value),
    html: fill(template.html, data, escapeHtml),
  };
}
