/**
 * Type-checks recorded gateway exchanges against the official `stripe` and `@paddle/paddle-node-sdk`
 * types: writes them as annotated object literals into a temporary project (strict, this project's
 * node_modules) and compiles it, then maps each error back to its exchange and field.
 */
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import ts from "typescript";
import type { RecordedExchange } from "../../../provider-sim/gateways/exchange-recorder.ts";
import { type CheckFile, writeCheckFile } from "./check-file.ts";
import { type Check, type Finding, planChecks } from "./plan.ts";

export type { Finding } from "./plan.ts";

export interface TypeCheckReport {
  /** Distinct values checked (identical exchanges are checked once). */
  readonly checked: number;
  /** Distinct values with no finding. */
  readonly passed: number;
  readonly findings: readonly Finding[];
  /** The generated project; `npx tsc -p <dir>` reproduces the compiler's part. */
  readonly directory: string;
}

const PROJECT_ROOT = resolve(import.meta.dir, "../../..");

const COMPILER_OPTIONS: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  lib: ["lib.es2023.d.ts"],
  types: [],
};

function writeProject(file: CheckFile): { directory: string; path: string } {
  const directory = mkdtempSync(join(tmpdir(), "gateway-types-"));
  mkdirSync(directory, { recursive: true });
  symlinkSync(join(PROJECT_ROOT, "node_modules"), join(directory, "node_modules"), "dir");
  const path = join(directory, "exchanges.ts");
  writeFileSync(path, file.text);
  const tsconfig = {
    compilerOptions: {
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      target: "ES2022",
      module: "ESNext",
      moduleResolution: "bundler",
      lib: ["ES2023"],
      types: [],
    },
    files: ["exchanges.ts"],
  };
  writeFileSync(join(directory, "tsconfig.json"), `${JSON.stringify(tsconfig, null, 2)}\n`);
  return { directory, path };
}

/** An unknown property in an object literal, plainly or with a "did you mean". */
const EXCESS_PROPERTY = new Set([2353, 2561]);
/** Missing properties (one, some, many) and the excess ones. */
const LISTED_ABOVE = new Set([2739, 2740, 2741, ...EXCESS_PROPERTY]);
const parentOf = (path: string) => path.replace(/(\.[^.[]+|\[\d+\]|^[^.[]+)$/, "");
const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();

/** Every missing required field and every field the type does not know, of one object in a value. */
function keyDifferences(checker: ts.TypeChecker, type: ts.Type, keys: readonly string[]) {
  if (type.flags & (ts.TypeFlags.Never | ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return undefined;
  const members = type.isUnion() ? type.types : [type];
  let best: { missing: string[]; unknown: string[] } | undefined;
  for (const member of members) {
    if (checker.isArrayType(member)) continue;
    const properties = checker.getPropertiesOfType(member);
    const names = new Set(properties.map((property) => property.name));
    const open = checker.getIndexInfosOfType(member).length > 0;
    const missing = properties
      .filter((property) => !(property.flags & ts.SymbolFlags.Optional) && !property.name.startsWith("__@"))
      .map((property) => property.name)
      .filter((name) => !keys.includes(name));
    const unknown = open ? [] : keys.filter((key) => !names.has(key));
    if (!best || missing.length + unknown.length < best.missing.length + best.unknown.length)
      best = { missing, unknown };
  }
  return best;
}

/**
 * The packages' declaration files, parsed once per process: every check reads the same ones, and
 * parsing them is most of a compile's time when several checks run in one test process.
 */
const declarations = new Map<string, ts.SourceFile>();

function cachingHost(): ts.CompilerHost {
  const host = ts.createCompilerHost(COMPILER_OPTIONS);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
    if (!fileName.endsWith(".d.ts")) return read(fileName, languageVersion, onError, shouldCreate);
    const known = declarations.get(fileName);
    if (known) return known;
    const parsed = read(fileName, languageVersion, onError, shouldCreate);
    if (parsed) declarations.set(fileName, parsed);
    return parsed;
  };
  return host;
}

/** Compiles the checks; returns one finding per compiler error and per missing or unknown field. */
function compile(checks: readonly Check[]): { findings: Finding[]; failed: Set<number>; directory: string } {
  const file = writeCheckFile(PROJECT_ROOT, checks);
  const { directory, path } = writeProject(file);
  const program = ts.createProgram([path], COMPILER_OPTIONS, cachingHost());
  const source = program.getSourceFile(path);
  if (!source) throw new Error(`the check file ${path} was not compiled`);
  const findings: Finding[] = [];
  const failed = new Set<number>();
  const at = (index: number, path: string, message: string) => {
    const check = checks[index] as Check;
    failed.add(index);
    findings.push({ ...check, path, message, seqs: check.seqs });
  };
  const checker = program.getTypeChecker();
  const aliases = new Map<string, ts.TypeAliasDeclaration>();
  for (const statement of source.statements) {
    if (ts.isTypeAliasDeclaration(statement)) aliases.set(statement.name.text, statement);
  }
  const listed = new Set<string>();
  for (const node of file.objects) {
    const alias = aliases.get(node.alias);
    if (!alias) continue;
    const differences = keyDifferences(checker, checker.getTypeFromTypeNode(alias.type), node.keys);
    if (!differences) continue;
    if (differences.missing.length > 0) at(node.check, node.path, `missing: ${differences.missing.join(", ")}`);
    if (differences.unknown.length > 0) at(node.check, node.path, `not in the type: ${differences.unknown.join(", ")}`);
    if (differences.missing.length + differences.unknown.length > 0) listed.add(`${node.check} ${node.path}`);
  }
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const message = oneLine(ts.flattenDiagnosticMessageText(diagnostic.messageText, " "));
    if (diagnostic.file !== source || diagnostic.start === undefined) {
      throw new Error(`the check file does not compile: ${message}`);
    }
    const { line } = source.getLineAndCharacterOfPosition(diagnostic.start);
    const owner = file.owners[line];
    if (!owner) throw new Error(`the check file's line ${line + 1} does not compile: ${message}`);
    if (owner.helper) {
      failed.add(owner.check);
      continue;
    }
    // The compiler names a few missing fields and the first unknown one; the lists above name them all.
    const object = EXCESS_PROPERTY.has(diagnostic.code) ? parentOf(owner.path) : owner.path;
    if (LISTED_ABOVE.has(diagnostic.code) && listed.has(`${owner.check} ${object}`)) {
      failed.add(owner.check);
      continue;
    }
    at(owner.check, owner.path, `TS${diagnostic.code}: ${message}`);
  }
  return { findings, failed, directory };
}

export function checkExchanges(exchanges: readonly RecordedExchange[]): TypeCheckReport {
  const plan = planChecks(exchanges);
  const { findings, failed, directory } = compile(plan.checks);
  return {
    checked: plan.checks.length,
    passed: plan.checks.length - failed.size,
    findings: [...plan.findings, ...findings],
    directory,
  };
}
