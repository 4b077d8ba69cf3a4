import { readFileSync } from "node:fs";
import { join } from "node:path";
import { EMAIL_TEMPLATES, type EmailTemplate } from "../../application/mail/ports.ts";
import { projectPath } from "../asset-paths.ts";

const TEMPLATES_DIR = projectPath("adapters", "mail", "templates");

/** The source of every email template, one `<name>.email` file each, read once at startup. */
export function readEmailTemplates(dir = TEMPLATES_DIR): Record<EmailTemplate, string> {
  return Object.fromEntries(
    EMAIL_TEMPLATES.map((name) => [name, readFileSync(join(dir, `${name}.email`), "utf8")]),
  ) as Record<EmailTemplate, string>;
}
