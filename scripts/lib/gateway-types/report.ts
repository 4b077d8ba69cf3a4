import type { GatewayName } from "../../../provider-sim/gateways/webhook-deliverer.ts";
import type { Finding, TypeCheckReport } from "./type-check.ts";

/** `items[3].price` → `items[].price`: the same field of every element is one finding. */
const fieldOf = (path: string) => path.replace(/\[\d+\]/g, "[]");

/**
 * One line per distinct finding: subject, direction, official type, field, message, and which
 * recorded exchanges (`#seq`) showed it. Identical findings of several exchanges are merged.
 */
export function findingLines(findings: readonly Finding[], gateway?: GatewayName): string[] {
  const merged = new Map<string, { line: string; seqs: Set<number> }>();
  for (const finding of findings) {
    if (gateway && finding.gateway !== gateway) continue;
    const field = fieldOf(finding.path) || "(whole value)";
    const line = `${finding.gateway} ${finding.subject} ${finding.direction} [${finding.type}] ${field}: ${finding.message}`;
    const entry = merged.get(line) ?? { line, seqs: new Set<number>() };
    for (const seq of finding.seqs) entry.seqs.add(seq);
    merged.set(line, entry);
  }
  return [...merged.values()]
    .sort((a, b) => a.line.localeCompare(b.line))
    .map(({ line, seqs }) => {
      const shown = [...seqs].slice(0, 5).map((seq) => `#${seq}`);
      return `${line} (${shown.join(" ")}${seqs.size > 5 ? ` +${seqs.size - 5}` : ""})`;
    });
}

export function summaryLine(report: TypeCheckReport): string {
  return `${report.passed} of ${report.checked} distinct shapes match the official types; ${report.findings.length} findings (${report.directory})`;
}
