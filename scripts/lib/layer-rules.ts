import { posix } from "node:path";

export interface SourceFile {
  /** Repository-relative path with forward slashes, e.g. `domain/identity/user.ts`. */
  readonly path: string;
  readonly content: string;
}

export interface Violation {
  readonly path: string;
  readonly line: number;
  readonly reason: string;
}

type Layer = "domain" | "application";

const ALLOWED_TARGETS: Record<Layer, readonly string[]> = {
  domain: ["domain"],
  application: ["domain", "application"],
};

// `[^'"`;]*?` lets a statement span lines (multi-line braces) but never run into a string or the next statement.
const SPECIFIER_PATTERNS = [
  /\b(?:import|export)\b[^'"`;]*?\bfrom\s*(['"])([^'"\n]+)\1/g,
  /\bimport\s*(['"])([^'"\n]+)\1/g,
  /\b(?:import|require)\s*\(\s*(['"`])([^'"`\n]+)\1\s*\)/g,
];

const RUNTIME_GLOBALS: readonly [RegExp, string][] = [
  [/\bBun\s*\./g, "Bun.*"],
  [/\bDeno\s*\./g, "Deno.*"],
  [/\bprocess\s*\.\s*env\b/g, "process.env"],
];

const RUNTIME_MODULE = /^(?:node:|bun:|bun$)/;

function layerOf(path: string): Layer | undefined {
  const top = path.split("/")[0];
  return top === "domain" || top === "application" ? top : undefined;
}

/**
 * Blanks comments (keeping every offset and newline) so prose and commented-out code never count.
 * String bodies are kept because import specifiers live in them.
 */
export function maskComments(source: string): string {
  const out: string[] = [];
  let i = 0;
  while (i < source.length) {
    const c = source[i];
    const next = source[i + 1];
    let end = i + 1;
    if (c === "/" && next === "/") {
      end = source.indexOf("\n", i);
      if (end === -1) end = source.length;
      out.push(" ".repeat(end - i));
    } else if (c === "/" && next === "*") {
      end = source.indexOf("*/", i + 2);
      end = end === -1 ? source.length : end + 2;
      out.push(source.slice(i, end).replace(/[^\n]/g, " "));
    } else {
      if (c === '"' || c === "'" || c === "`") {
        while (end < source.length && source[end] !== c && (c === "`" || source[end] !== "\n")) {
          end += source[end] === "\\" ? 2 : 1;
        }
        end = Math.min(end + 1, source.length);
      } else if (c === "\\") {
        // Only regex literals have backslashes outside strings; `\/` must not start a `//` comment.
        end = Math.min(i + 2, source.length);
      }
      out.push(source.slice(i, end));
    }
    i = end;
  }
  return out.join("");
}

function lineAt(source: string, index: number): number {
  let line = 1;
  for (let i = 0; i < index; i++) if (source.charCodeAt(i) === 10) line++;
  return line;
}

function checkSpecifier(path: string, layer: Layer, specifier: string): string | undefined {
  if (RUNTIME_MODULE.test(specifier)) return `runtime module "${specifier}" is not allowed in ${layer}/`;
  const allowed = ALLOWED_TARGETS[layer].map((name) => `${name}/`).join(" or ");
  if (!specifier.startsWith("./") && !specifier.startsWith("../")) {
    return `${layer}/ may only import ${allowed} files, not package "${specifier}"`;
  }
  const target = posix.join(posix.dirname(path), specifier);
  const targetLayer = layerOf(target);
  if (targetLayer && ALLOWED_TARGETS[layer].includes(targetLayer)) return undefined;
  return `${layer}/ may only import ${allowed} files, not "${specifier}" (resolves to ${target})`;
}

/** Every import or runtime-global use in domain/ and application/ that breaks the layering. */
export function findLayerViolations(files: readonly SourceFile[]): Violation[] {
  const violations: Violation[] = [];
  for (const file of files) {
    const path = posix.normalize(file.path.replaceAll("\\", "/"));
    const layer = layerOf(path);
    if (!layer) continue;
    const code = maskComments(file.content);
    const found = new Map<number, string>();
    for (const pattern of SPECIFIER_PATTERNS) {
      for (const match of code.matchAll(pattern)) {
        const specifier = match[2] ?? "";
        const reason = checkSpecifier(path, layer, specifier);
        // Keyed by the specifier's offset so a statement matched by two patterns is reported once.
        if (reason) found.set((match.index ?? 0) + match[0].lastIndexOf(specifier), reason);
      }
    }
    for (const [pattern, name] of RUNTIME_GLOBALS) {
      for (const match of code.matchAll(pattern)) {
        found.set(match.index ?? 0, `${name} is runtime-specific and not allowed in ${layer}/`);
      }
    }
    for (const [index, reason] of [...found].sort(([a], [b]) => a - b)) {
      violations.push({ path, line: lineAt(file.content, index), reason });
    }
  }
  return violations;
}
