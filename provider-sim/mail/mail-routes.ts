import { Elysia, t } from "elysia";
import { Int } from "../../kit/schema-types.ts";
import { mailNotFound, mailWithoutHtml } from "../errors.ts";
import { renderMailDetail, renderMailList } from "./mail-pages.ts";
import type { Mailbox } from "./mailbox.ts";
import { DEFAULT_REFUSAL_CODE, type SmtpRefusals } from "./smtp-refusals.ts";

export interface MailRoutesDeps {
  readonly mailbox: Mailbox;
  readonly mailRefusals: SmtpRefusals;
}

type Set = { status?: number | string; headers: Record<string, string | number> };

/** The sandbox's own pages run no script and frame only the sandbox's own HTML view. */
const PAGE_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; frame-src 'self'; base-uri 'none'; form-action 'none'";
/**
 * A message's HTML is whatever the sender wrote: served in a sandbox (an opaque origin, no
 * script, no forms), with nothing fetched from outside, and only framed by the sandbox itself.
 */
const MAIL_HTML_POLICY =
  "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'self'";

const FormatQuery = t.Object(
  { format: t.Optional(t.Union([t.Literal("json"), t.Literal("html")])) },
  { additionalProperties: true },
);
const IdParams = t.Object({ id: t.String({ minLength: 1, maxLength: 100 }) });
const MailFaultBody = t.Object(
  { count: Int({ minimum: 1, maximum: 10_000 }), code: t.Optional(Int({ minimum: 400, maximum: 599 })) },
  { additionalProperties: false },
);

/** JSON when asked for by `?format=json` or an Accept naming it; a browser gets the page. */
const wantsJson = (format: "json" | "html" | undefined, accept: string | undefined) =>
  format === "json" || (format === undefined && /\bapplication\/json\b/i.test(accept ?? ""));

function htmlDocument(set: Set, body: string, policy: string): string {
  set.headers["content-type"] = "text/html; charset=utf-8";
  set.headers["content-security-policy"] = policy;
  set.headers["x-content-type-options"] = "nosniff";
  return body;
}

/** `/__sim/mail*`: what the SMTP side received, and its refusal faults. Mounted with the other controls. */
export function createMailRoutes(deps: MailRoutesDeps) {
  const find = (id: string) => {
    const mail = deps.mailbox.find(id);
    if (!mail) throw mailNotFound(id);
    return mail;
  };
  return new Elysia()
    .get(
      "/__sim/mail",
      ({ query, headers, set }) =>
        wantsJson(query.format, headers.accept)
          ? { items: deps.mailbox.list() }
          : htmlDocument(set, renderMailList(deps.mailbox.list()), PAGE_POLICY),
      { query: FormatQuery },
    )
    .delete("/__sim/mail", () => ({ cleared: deps.mailbox.clear() }))
    .post(
      "/__sim/mail/faults",
      ({ body, set }) => {
        const refusal = { count: body.count, code: body.code ?? DEFAULT_REFUSAL_CODE };
        deps.mailRefusals.enqueue(refusal);
        set.status = 201;
        return refusal;
      },
      { body: MailFaultBody },
    )
    .get(
      "/__sim/mail/:id",
      ({ params, query, headers, set }) => {
        const mail = find(params.id);
        return wantsJson(query.format, headers.accept) ? mail : htmlDocument(set, renderMailDetail(mail), PAGE_POLICY);
      },
      { params: IdParams, query: FormatQuery },
    )
    .get(
      "/__sim/mail/:id/html",
      ({ params, set }) => {
        const { html } = find(params.id);
        if (html === null) throw mailWithoutHtml(params.id);
        return htmlDocument(set, html, MAIL_HTML_POLICY);
      },
      { params: IdParams },
    );
}
