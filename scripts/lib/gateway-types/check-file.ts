/**
 * Writes checks as a TypeScript file of annotated object literals (`const c17: Stripe.Refund = {…};`),
 * so the compiler applies its excess-property and literal-type checks as it would to code. Every
 * line remembers which check and which field it belongs to, so an error maps back to both.
 */
import { join } from "node:path";
import type { Check } from "./plan.ts";

const PADDLE_INTERNAL = "@paddle/paddle-node-sdk/dist/types/internal/types/response.js";
/** The SDK takes a portal session's subscription ids as an argument and exports no type for the body it sends. */
const PADDLE_PORTAL_SESSION =
  "@paddle/paddle-node-sdk/dist/types/resources/customer-portal-sessions/operations/index.js";

/** The imports and helpers every check file starts with; `root` is the project's directory. */
export function prelude(root: string): string[] {
  return [
    'import type Stripe from "stripe";',
    'import type * as Paddle from "@paddle/paddle-node-sdk";',
    `import type { ErrorResponse as PaddleErrorResponse, Response as PaddleResponse, ResponsePaginated as PaddlePage } from ${JSON.stringify(join(root, "node_modules", PADDLE_INTERNAL))};`,
    `import type { CreateCustomerPortalSessionRequestBody as PaddlePortalSessionBody } from ${JSON.stringify(join(root, "node_modules", PADDLE_PORTAL_SESSION))};`,
    "/** Stripe's `decimal_string` fields are strings on the wire; the SDK reads them into its Decimal. */",
    `declare function decimal(value: \`\${number}\`): Stripe.Decimal;`,
    "type PaddleEvent<T, N extends Paddle.IEventName> = Paddle.IEventsResponse<T> & { event_type: N };",
    "/** Query strings carry strings: only the names are checked. */",
    "type PaddleQuery<T> = { [K in keyof T]?: string };",
    "type Obj<T> = Extract<NonNullable<T>, object>;",
    "type At<T, K> = Obj<T> extends infer O ? (O extends readonly (infer U)[] ? (K extends number ? U : never) : K extends keyof O ? O[K] : never) : never;",
    "",
  ];
}

export interface LineOwner {
  readonly check: number;
  readonly path: string;
  /** A helper alias's line, whose errors repeat the literal's own (a type name the package lacks). */
  readonly helper?: true;
}

/** An object in a check's value, for listing every missing and unknown field of it. */
export interface ObjectNode {
  readonly check: number;
  readonly path: string;
  readonly alias: string;
  readonly keys: readonly string[];
}

export interface CheckFile {
  readonly text: string;
  /** By zero-based line number. */
  readonly owners: readonly (LineOwner | undefined)[];
  readonly objects: readonly ObjectNode[];
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const propertyName = (key: string) => (IDENTIFIER.test(key) ? key : JSON.stringify(key));
const pathOf = (path: string, segment: string | number) =>
  typeof segment === "number" ? `${path}[${segment}]` : path ? `${path}.${segment}` : segment;

export function writeCheckFile(root: string, checks: readonly Check[]): CheckFile {
  const lines: string[] = prelude(root);
  const owners: (LineOwner | undefined)[] = lines.map(() => undefined);
  const objects: ObjectNode[] = [];
  /** After every literal: a type alias may not stand inside one. */
  const aliases: { line: string; owner: LineOwner }[] = [];

  checks.forEach((check, index) => {
    const typeAt = (segments: readonly (string | number)[]) =>
      segments.reduce<string>((type, segment) => `At<${type}, ${JSON.stringify(segment)}>`, `(${check.type})`);
    let current = `const c${index}: ${check.type} = `;
    let currentPath = "";
    const flush = (next: string, nextPath: string) => {
      lines.push(current);
      owners.push({ check: index, path: currentPath });
      current = next;
      currentPath = nextPath;
    };
    const decimals = check.gateway === "gateway_b";
    const write = (value: unknown, indent: string, path: string, segments: (string | number)[]) => {
      if (Array.isArray(value)) {
        if (value.length === 0) {
          current += "[]";
          return;
        }
        current += "[";
        value.forEach((item, i) => {
          flush(`${indent}  `, pathOf(path, i));
          write(item, `${indent}  `, pathOf(path, i), [...segments, i]);
          current += ",";
        });
        flush(`${indent}]`, path);
        return;
      }
      if (value !== null && typeof value === "object") {
        const entries = Object.entries(value);
        const alias = `N${objects.length}`;
        objects.push({ check: index, path, alias, keys: entries.map(([key]) => key) });
        aliases.push({
          line: `type ${alias} = Obj<${typeAt(segments)}>;`,
          owner: { check: index, path, helper: true },
        });
        if (entries.length === 0) {
          current += "{}";
          return;
        }
        current += "{";
        for (const [key, item] of entries) {
          flush(`${indent}  ${propertyName(key)}: `, pathOf(path, key));
          write(item, `${indent}  `, pathOf(path, key), [...segments, key]);
          current += ",";
        }
        flush(`${indent}}`, path);
        return;
      }
      const decimal = decimals && typeof value === "string" && String(segments.at(-1)).endsWith("_decimal");
      current += decimal ? `decimal(${JSON.stringify(value)})` : JSON.stringify(value ?? null);
    };
    write(check.value, "", "", []);
    current += ";";
    flush("", "");
  });
  for (const alias of aliases) {
    lines.push(alias.line);
    owners.push(alias.owner);
  }
  return { text: `${lines.join("\n")}\n`, owners, objects };
}
