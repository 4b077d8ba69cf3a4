import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";

/** One value to judge: `type` is a TypeScript type over the `Stripe` namespace, e.g. `Stripe.Charge`. */
export interface TypedSample {
  readonly label: string;
  readonly type: string;
  readonly value: unknown;
}

const ROOT = new URL("../../../../", import.meta.url).pathname;
const TSC = join(ROOT, "node_modules", ".bin", "tsc");

/**
 * What a type looks like on the wire: the SDK turns decimal strings (`unit_amount_decimal`) into
 * `Stripe.Decimal` objects, which JSON carries as strings. Nothing else changes.
 */
const PREAMBLE = [
  'import type Stripe from "stripe";',
  "type Wire<T> = T extends Stripe.Decimal",
  "  ? string",
  "  : T extends readonly (infer U)[]",
  "    ? Wire<U>[]",
  "    : T extends object",
  "      ? { [K in keyof T]: Wire<T[K]> }",
  "      : T;",
  "",
];

/** The event interface of the `stripe` package for one event type, e.g. `Stripe.InvoicePaidEvent`. */
export const eventType = (type: string) => `Extract<Stripe.Event, { type: ${JSON.stringify(type)} }>`;

/** `value` as a literal with one member per line, and the JSON path each line stands for. */
function literal(value: unknown, path: string, indent: string, out: { text: string; path: string }[], head: string) {
  const tail = (text: string) => out.push({ text, path });
  if (Array.isArray(value) && value.length > 0) {
    tail(`${head}[`);
    value.forEach((item, i) => {
      literal(item, `${path}[${i}]`, `${indent}  `, out, `${indent}  `);
      (out.at(-1) as { text: string }).text += ",";
    });
    tail(`${indent}]`);
  } else if (typeof value === "object" && value !== null && !Array.isArray(value) && Object.keys(value).length > 0) {
    tail(`${head}{`);
    for (const [key, item] of Object.entries(value)) {
      literal(item, path ? `${path}.${key}` : key, `${indent}  `, out, `${indent}  ${JSON.stringify(key)}: `);
      (out.at(-1) as { text: string }).text += ",";
    }
    tail(`${indent}}`);
  } else {
    tail(`${head}${JSON.stringify(value)}`);
  }
}

/** The part of a compiler message worth reading: which fields are missing, unknown or mistyped. */
function gist(message: string): string {
  const missing = /is missing the following properties from type '[^']*': (.*)$/.exec(message);
  if (missing) return `missing ${missing[1]}`;
  const one = /^error TS\d+: Property '([^']+)' is missing in type/.exec(message);
  if (one) return `missing ${one[1]}`;
  const unknown = /Object literal may only specify known properties, and '([^']+)' does not exist/.exec(message);
  if (unknown) return `unknown ${unknown[1]}`;
  return message.length > 400 ? `${message.slice(0, 400)}…` : message;
}

/**
 * Writes every sample as `const x: Wire<type> = <literal>;` into a scratch file and runs
 * `tsc --noEmit --strict` on it, so a field the official types lack is an excess property, and a
 * missing required field or a wrong type an error, exactly as for hand-written code. Returns the
 * compiler's findings by sample label, each prefixed with the JSON path it was found at; an empty
 * object means every sample type-checks.
 */
export async function typeCheck(samples: readonly TypedSample[]): Promise<Record<string, string[]>> {
  const dir = join(ROOT, ".tmp", `stripe-types-${crypto.randomUUID()}`);
  await mkdir(dir, { recursive: true });
  const rows: { text: string; path: string; label: string }[] = PREAMBLE.map((text) => ({
    text,
    path: "",
    label: "(preamble)",
  }));
  samples.forEach((sample, i) => {
    const out: { text: string; path: string }[] = [];
    literal(sample.value, "", "", out, `export const sample${i}: Wire<${sample.type}> = `);
    (out.at(-1) as { text: string }).text += ";";
    rows.push(...out.map((row) => ({ ...row, label: sample.label })));
  });
  await writeFile(join(dir, "samples.ts"), rows.map((row) => row.text).join("\n"));
  await writeFile(
    join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        target: "ES2022",
        module: "Preserve",
        moduleResolution: "bundler",
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        types: [],
      },
      files: ["samples.ts"],
    }),
  );
  try {
    const run = Bun.spawnSync([TSC, "-p", join(dir, "tsconfig.json"), "--pretty", "false"], { cwd: ROOT });
    const found: Record<string, string[]> = {};
    for (const line of new TextDecoder().decode(run.stdout).split("\n")) {
      const at = /samples\.ts\((\d+),\d+\): (error .*)$/.exec(line);
      if (!at) continue;
      const row = rows[Number(at[1]) - 1];
      const label = row?.label ?? "(tsc)";
      found[label] = [...(found[label] ?? []), `${row?.path || "(root)"}: ${gist(at[2] as string)}`];
    }
    if (run.exitCode !== 0 && Object.keys(found).length === 0) {
      found["(tsc)"] = [`tsc exited with ${run.exitCode}: ${new TextDecoder().decode(run.stdout).slice(0, 2000)}`];
    }
    return found;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
