import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

export interface LogFinding {
  readonly file: string;
  readonly line: number;
  readonly what: string;
}

/** Shapes of credentials that must never appear in a log, whatever their value. */
const PATTERNS: readonly { readonly what: string; readonly pattern: RegExp }[] = [
  { what: "a bearer token", pattern: /Bearer\s+[A-Za-z0-9._~+/=-]{8,}/ },
  { what: "a JSON Web Token", pattern: /eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\./ },
  { what: "a password field", pattern: /"password"\s*:\s*"(?!\[redacted\]")/ },
  { what: "a Stripe secret key", pattern: /\b[sr]k_(?:live|test)_[A-Za-z0-9_]{6,}/ },
  { what: "a webhook signing secret", pattern: /\bwhsec_[A-Za-z0-9_]{6,}/ },
  { what: "a private key", pattern: /-----BEGIN [A-Z ]*PRIVATE KEY-----/ },
  { what: "a signed download token", pattern: /\/api\/downloads\/(?!\[redacted\])[^\s"/?]+/ },
  {
    what: "a credential in a query string",
    pattern: /[?&][^=&\s"]*(?:token|key|signature|secret|password)[^=&\s"]*=(?!\[redacted\])[^&\s"]+/i,
  },
  { what: "a signed link's access", pattern: /[?&]access=(?!\[redacted\])[^&\s"]+/ },
];

/** Every line of `text` holding a known secret value or a credential-shaped string. */
export function scanLogText(text: string, secrets: readonly string[]): { line: number; what: string }[] {
  const findings: { line: number; what: string }[] = [];
  text.split("\n").forEach((content, index) => {
    for (const secret of secrets) {
      if (content.includes(secret))
        findings.push({ line: index + 1, what: `the secret value "${secret.slice(0, 4)}…"` });
    }
    for (const { what, pattern } of PATTERNS) {
      if (pattern.test(content)) findings.push({ line: index + 1, what });
    }
  });
  return findings;
}

/** Scans every file of a directory; returns the findings and how much was read. */
export function scanLogDirectory(directory: string, secrets: readonly string[]) {
  const findings: LogFinding[] = [];
  let lines = 0;
  const files = readdirSync(directory);
  for (const file of files) {
    const text = readFileSync(join(directory, file), "utf8");
    lines += text.split("\n").length - 1;
    findings.push(...scanLogText(text, secrets).map((finding) => ({ file, ...finding })));
  }
  return { files: files.length, lines, findings };
}
