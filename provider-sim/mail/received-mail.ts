import { type AddressObject, simpleParser } from "mailparser";

/** One message as the sandbox keeps it: what the views show; attachments are described, not kept. */
export interface ReceivedMail {
  readonly id: string;
  readonly received_at: string;
  /** What the SMTP client said in MAIL FROM and RCPT TO, which Bcc recipients show up in only. */
  readonly envelope: { readonly from: string | null; readonly to: readonly string[] };
  /** The From header decoded, e.g. `Marketplace <shop@localhost>`. */
  readonly from: string | null;
  readonly to: readonly string[];
  readonly cc: readonly string[];
  readonly subject: string | null;
  /** The Date header; `received_at` is when the sandbox got the message. */
  readonly date: string | null;
  readonly message_id: string | null;
  readonly text: string | null;
  readonly html: string | null;
  /** Every header line, names in lower case, values as sent; a repeated header's values joined by ", ". */
  readonly headers: Readonly<Record<string, string>>;
  readonly attachments: readonly { filename: string | null; content_type: string; size: number }[];
}

export interface Reception {
  readonly id: string;
  readonly receivedAt: Date;
  readonly envelope: ReceivedMail["envelope"];
}

function mailboxes(field: AddressObject | AddressObject[] | undefined) {
  const groups = field === undefined ? [] : [field].flat();
  return groups.flatMap((group) => group.value).flatMap((entry) => entry.group ?? [entry]);
}

const addresses = (field: AddressObject | AddressObject[] | undefined) =>
  mailboxes(field).flatMap((entry) => (entry.address ? [entry.address] : []));

/** `Name <address>`, decoded and unquoted, as a person reads it; null without a From header. */
function sender(field: AddressObject | undefined): string | null {
  const named = mailboxes(field).map((entry) =>
    entry.name ? `${entry.name} <${entry.address ?? ""}>` : (entry.address ?? ""),
  );
  return named.length === 0 ? null : named.join(", ");
}

function headerRecord(lines: readonly { key: string; line: string }[]): Record<string, string> {
  // A Map, then own properties: a header named `__proto__` or `constructor` is just a header.
  const headers = new Map<string, string>();
  for (const { key, line } of lines) {
    const value = line
      .slice(line.indexOf(":") + 1)
      .replace(/\r?\n[ \t]+/g, " ")
      .trim();
    const earlier = headers.get(key);
    headers.set(key, earlier === undefined ? value : `${earlier}, ${value}`);
  }
  return Object.fromEntries(headers);
}

const isoOrNull = (date: Date | undefined) =>
  date === undefined || Number.isNaN(date.getTime()) ? null : date.toISOString();

/** Parses the raw bytes of a DATA command; the parts are kept as sent, with no conversion between them. */
export async function parseReceivedMail(raw: Buffer, reception: Reception): Promise<ReceivedMail> {
  const parsed = await simpleParser(raw, { skipHtmlToText: true, skipTextToHtml: true, skipTextLinks: true });
  return {
    id: reception.id,
    received_at: reception.receivedAt.toISOString(),
    envelope: reception.envelope,
    from: sender(parsed.from),
    to: addresses(parsed.to),
    cc: addresses(parsed.cc),
    subject: parsed.subject ?? null,
    date: isoOrNull(parsed.date),
    message_id: parsed.messageId ?? null,
    text: parsed.text ?? null,
    html: parsed.html || null,
    headers: headerRecord(parsed.headerLines),
    attachments: parsed.attachments.map((attachment) => ({
      filename: attachment.filename ?? null,
      content_type: attachment.contentType,
      size: attachment.size,
    })),
  };
}
