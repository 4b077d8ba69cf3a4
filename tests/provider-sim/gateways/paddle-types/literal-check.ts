import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";

/** One value to check: written as `const <name>: <type> = <value as JSON>;`. */
export interface TypedSample {
  /** What the value is, for the report (`GET /transactions/{id} → 200`). */
  readonly label: string;
  /** A TypeScript type over the names `header` imports. */
  readonly type: string;
  readonly value: unknown;
}

const ROOT = resolve(import.meta.dir, "../../../..");
const SDK_TYPES = join(ROOT, "node_modules/@paddle/paddle-node-sdk/dist/types");

/**
 * Type-checks `samples` as object literals under `tsc --strict`: a missing required field, a field
 * the type does not have (excess property check) and a value outside the type all fail. `imports`
 * are type names from the package root; `internal` ones (Response, ResponsePaginated, ErrorResponse)
 * come from the package's own response types, which the root does not re-export. Answers one line
 * per problem, `<label>: <tsc message>`; none when everything matches.
 */
export async function checkLiterals(
  imports: readonly string[],
  internal: readonly string[],
  samples: readonly TypedSample[],
): Promise<string[]> {
  const dir = join(ROOT, ".tmp", `paddle-types-${crypto.randomUUID()}`);
  mkdirSync(dir, { recursive: true });
  try {
    const lines = [
      `import type { ${imports.join(", ")} } from "@paddle/paddle-node-sdk";`,
      `import type { ${internal.join(", ")} } from "${relative(dir, join(SDK_TYPES, "internal/types/response.js"))}";`,
      "",
    ];
    const owners: { from: number; label: string }[] = [];
    samples.forEach((sample, i) => {
      const text = `export const sample${i}: ${sample.type} = ${JSON.stringify(sample.value, null, 2)};`;
      owners.push({ from: lines.length + 1, label: sample.label });
      lines.push(...text.split("\n"), "");
    });
    writeFileSync(join(dir, "check.ts"), lines.join("\n"));
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          target: "ES2022",
          lib: ["ES2023", "DOM"],
          module: "Preserve",
          moduleResolution: "bundler",
          types: [],
        },
        files: ["check.ts"],
      }),
    );
    const tsc = Bun.spawn(
      [join(ROOT, "node_modules/.bin/tsc"), "-p", join(dir, "tsconfig.json"), "--pretty", "false"],
      {
        cwd: ROOT,
        stdout: "pipe",
        stderr: "pipe",
      },
    );
    const [out, err] = [await new Response(tsc.stdout).text(), await new Response(tsc.stderr).text()];
    await tsc.exited;
    return report(`${out}${err}`, owners);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** tsc's `check.ts(<line>,<col>): error TS…: message` lines (and their indented follow-ups) by sample. */
function report(output: string, owners: readonly { from: number; label: string }[]): string[] {
  const problems: string[] = [];
  for (const line of output.split("\n")) {
    const located = /check\.ts\((\d+),\d+\): (.*)$/.exec(line);
    if (located) {
      const at = Number(located[1]);
      const owner = owners.findLast((candidate) => candidate.from <= at);
      problems.push(`${owner?.label ?? "header"}: ${located[2]}`);
    } else if (line.trim() !== "") {
      problems.push(problems.length > 0 ? `${problems.pop()}\n${line}` : line);
    }
  }
  return problems;
}
