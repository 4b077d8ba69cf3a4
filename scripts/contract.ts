/**
 * `npm run contract`: runs the provider contract suite (`bun test tests/contract`) and prints one line per
 * contract rule. Target: `PROVIDER_BASE_URL` with `PROVIDER_TOKEN` (and optional `PROVIDER_HMAC_SECRET`,
 * `PROVIDER_PRODUCT_REF`) when set, else the bundled simulator each test file starts. Exits non-zero when a
 * rule fails or the suite errors.
 */
import { join } from "node:path";

type Outcome = "pass" | "fail" | "skip";

interface RuleResult {
  readonly rule: number;
  readonly title: string;
  readonly outcomes: Outcome[];
  readonly failures: string[];
}

const root = join(import.meta.dir, "..");
// The child inherits the environment, PROVIDER_BASE_URL, PROVIDER_TOKEN, PROVIDER_HMAC_SECRET included.
const env: Record<string, string | undefined> = { ...process.env, NODE_ENV: "test" };

const proc = Bun.spawn([process.execPath, "test", "tests/contract", ...process.argv.slice(2)], {
  cwd: root,
  env,
  stdin: "ignore",
  stdout: "pipe",
  stderr: "pipe",
});
const [code, stdout, stderr] = await Promise.all([
  proc.exited,
  new Response(proc.stdout).text(),
  new Response(proc.stderr).text(),
]);
const combined = `${stdout}\n${stderr}`;

const RESULT_LINE = /^\((pass|fail|skip|todo)\) (.*?)(?: \[[\d.]+m?s\])?$/;
const RULE_TITLE = /(?:^|> )contract rule (\d+): (.*)$/;

const rules = new Map<number, RuleResult>();
const others: { outcome: Outcome; name: string; failure: string }[] = [];
let block: string[] = [];
for (const line of stderr.split("\n")) {
  const match = RESULT_LINE.exec(line);
  if (!match) {
    // bun prints a failing test's error above its `(fail)` line; a file header or a result line resets it.
    if (/^\S.*\.test\.ts:$/.test(line)) block = [];
    else block.push(line);
    continue;
  }
  const outcome = (match[1] === "todo" ? "skip" : match[1]) as Outcome;
  const name = match[2] as string;
  const failure = outcome === "fail" ? summarizeFailure(block) : "";
  block = [];
  const rule = RULE_TITLE.exec(name);
  if (!rule) {
    others.push({ outcome, name, failure });
    continue;
  }
  const number = Number(rule[1]);
  const entry = rules.get(number) ?? { rule: number, title: rule[2] as string, outcomes: [], failures: [] };
  entry.outcomes.push(outcome);
  if (failure) entry.failures.push(failure);
  rules.set(number, entry);
}

/** The `error:` line and the few lines after it, without bun's source excerpt. */
function summarizeFailure(lines: string[]): string {
  const start = lines.findIndex((line) => line.startsWith("error:"));
  const relevant = (start === -1 ? lines.filter((line) => line.trim() !== "") : lines.slice(start))
    .filter((line) => !/^\s+at /.test(line) && !/^\d+ \|/.test(line) && !/^\s*\^\s*$/.test(line))
    .slice(0, 14);
  return relevant.join("\n").trim();
}

const skipReasons = new Map<number, string>();
for (const match of combined.matchAll(/^contract rule (\d+) skipped: (.*)$/gm))
  skipReasons.set(Number(match[1]), match[2] as string);
const notes = [...new Set([...combined.matchAll(/^(contract rule \d+: .*not checked.*)$/gm)].map((m) => m[1]))];

const targets = [...combined.matchAll(/^contract target: (.*?) \((.*?)\); \/__sim controls: (used|not available)/gm)];
const bundled = targets.some((match) => match[1] === "bundled simulator");
const targetName = process.env.PROVIDER_BASE_URL
  ? process.env.PROVIDER_BASE_URL
  : bundled
    ? "bundled simulator (one per test file)"
    : "bundled simulator";
const controls = targets.length === 0 ? "unknown" : targets.some((match) => match[3] === "used") ? "yes" : "no";

const lines: string[] = [];
lines.push("provider contract: openapi/provider.yaml");
lines.push(`target:           ${targetName}`);
lines.push(
  `/__sim controls:  ${controls === "yes" ? "used" : controls === "no" ? "not available (rules needing them skipped)" : "unknown"}`,
);
lines.push(
  `hmac signing:     ${process.env.PROVIDER_BASE_URL && !process.env.PROVIDER_HMAC_SECRET ? "not checked (PROVIDER_HMAC_SECRET unset)" : "checked"}`,
);
lines.push("");

let passed = 0;
let failed = 0;
let skipped = 0;
for (const entry of [...rules.values()].sort((a, b) => a.rule - b.rule)) {
  const outcome: Outcome = entry.outcomes.includes("fail")
    ? "fail"
    : entry.outcomes.every((value) => value === "skip")
      ? "skip"
      : "pass";
  const label = `rule ${String(entry.rule).padEnd(2)}`;
  if (outcome === "pass") {
    passed++;
    lines.push(`PASS  ${label}  ${entry.title}`);
  } else if (outcome === "skip") {
    skipped++;
    lines.push(`SKIP  ${label}  ${entry.title} (${skipReasons.get(entry.rule) ?? "skipped"})`);
  } else {
    failed++;
    lines.push(`FAIL  ${label}  ${entry.title}`);
    for (const failure of entry.failures) lines.push(indent(failure));
  }
}

const brokenChecks = others.filter((other) => other.outcome === "fail");
if (others.length > 0) {
  lines.push("");
  lines.push(
    `suite self-checks: ${others.filter((o) => o.outcome === "pass").length} passed, ${brokenChecks.length} failed`,
  );
  for (const check of brokenChecks) {
    lines.push(`FAIL  ${check.name}`);
    lines.push(indent(check.failure));
  }
}

// Errors outside any test (a file that failed to load, a target that could not be reached or started).
const fileErrors = new Map<string, string>();
{
  let file = "";
  let inError = false;
  for (const line of stderr.split("\n")) {
    const header = /^(\S.*\.test\.ts):$/.exec(line);
    if (header) file = header[1] as string;
    else if (line.startsWith("# Unhandled error")) inError = true;
    else if (inError && line.startsWith("error:")) {
      fileErrors.set(file || "(unknown file)", line.slice("error:".length).trim());
      inError = false;
    }
  }
}
const unhandled = Number(/^ *(\d+) errors?$/m.exec(stderr)?.[1] ?? 0);
if (fileErrors.size > 0) {
  lines.push("");
  lines.push("test files that errored before their rules ran:");
  for (const [file, message] of fileErrors) lines.push(`ERROR ${file}: ${message}`);
}
const unexplained = code !== 0 && failed === 0 && brokenChecks.length === 0 && fileErrors.size === 0;
if (unexplained || (rules.size === 0 && fileErrors.size === 0)) {
  lines.push("");
  lines.push(`bun test exited ${code}; the end of its output follows`);
  lines.push(indent(stderr.trim().split("\n").slice(-40).join("\n")));
}

if (notes.length > 0) {
  lines.push("");
  lines.push("notes:");
  for (const note of notes) lines.push(`  - ${note}`);
}

lines.push("");
lines.push(
  `${passed} passed, ${failed} failed, ${skipped} skipped${fileErrors.size > 0 ? `; ${fileErrors.size} test file(s) errored` : ""}`,
);
console.log(lines.join("\n"));

const ok =
  code === 0 && failed === 0 && brokenChecks.length === 0 && unhandled === 0 && fileErrors.size === 0 && rules.size > 0;
process.exit(ok ? 0 : 1);

function indent(text: string): string {
  return text
    .split("\n")
    .map((line) => `        ${line}`)
    .join("\n");
}
