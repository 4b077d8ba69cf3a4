import type { ReceivedMail } from "./received-mail.ts";

const html = (value: string | number) => Bun.escapeHTML(String(value));
const mailPath = (mail: ReceivedMail) => `/__sim/mail/${encodeURIComponent(mail.id)}`;

const STYLE =
  "body{font-family:system-ui,sans-serif;margin:2rem;max-width:72rem}table{border-collapse:collapse;width:100%}" +
  "th,td{text-align:left;padding:.3rem .6rem;border-bottom:1px solid #ddd;vertical-align:top}" +
  "pre{white-space:pre-wrap;background:#f6f6f6;padding:1rem}iframe{width:100%;height:32rem;border:1px solid #ddd}";

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${html(title)}</title><style>${STYLE}</style></head><body>${body}</body></html>`;
}

/** The mailbox, newest first, each message linking to its own page. */
export function renderMailList(mails: readonly ReceivedMail[]): string {
  const rows = mails.map(
    (mail) =>
      `<tr><td>${html(mail.received_at)}</td><td>${html(mail.from ?? "")}</td><td>${html(mail.to.join(", "))}</td>` +
      `<td><a href="${html(mailPath(mail))}">${html(mail.subject ?? "(no subject)")}</a></td></tr>`,
  );
  const content =
    mails.length === 0
      ? "<p>No mail yet. Messages sent to the simulator's SMTP port appear here.</p>"
      : `<table><thead><tr><th>Received</th><th>From</th><th>To</th><th>Subject</th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
  return page("Mail sandbox", `<h1>Mail sandbox</h1><p>${mails.length} message(s), newest first.</p>${content}`);
}

function field(name: string, value: string | null): string {
  return value ? `<tr><th>${html(name)}</th><td>${html(value)}</td></tr>` : "";
}

/** One message: its addresses, the HTML part in a sandboxed frame, the text part and every header. */
export function renderMailDetail(mail: ReceivedMail): string {
  const fields = [
    field("From", mail.from),
    field("To", mail.to.join(", ")),
    field("Cc", mail.cc.join(", ")),
    field("Date", mail.date),
    field("Received", mail.received_at),
    field("Message-ID", mail.message_id),
    field("Envelope", `${mail.envelope.from ?? "<>"} → ${mail.envelope.to.join(", ")}`),
    field("Attachments", mail.attachments.map((a) => `${a.filename ?? "(unnamed)"} (${a.size} bytes)`).join(", ")),
  ].join("");
  const htmlPart = mail.html
    ? `<h2>HTML</h2><iframe sandbox title="HTML part" src="${html(`${mailPath(mail)}/html`)}"></iframe>`
    : "";
  const textPart = mail.text === null ? "" : `<h2>Text</h2><pre>${html(mail.text)}</pre>`;
  const headers = Object.entries(mail.headers)
    .map(([name, value]) => `<tr><th>${html(name)}</th><td>${html(value)}</td></tr>`)
    .join("");
  return page(
    mail.subject ?? "(no subject)",
    `<p><a href="/__sim/mail">← Mail sandbox</a> · <a href="${html(`${mailPath(mail)}?format=json`)}">JSON</a></p>` +
      `<h1>${html(mail.subject ?? "(no subject)")}</h1><table>${fields}</table>${htmlPart}${textPart}` +
      `<h2>Headers</h2><table>${headers}</table>`,
  );
}
