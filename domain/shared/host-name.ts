/** One DNS label: letters, digits and inner hyphens, 1 to 63 characters (RFC 1123). */
const LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

export const HOST_NAME_MAX_LENGTH = 253;

/**
 * The labels of a host name that reaches beyond this machine: two or more labels, at most 253
 * characters, the last not all digits (that would be an IP address). Undefined for anything else.
 * The one rule both email domains and customer domains follow.
 */
export function hostNameLabels(name: string): readonly string[] | undefined {
  if (name.length > HOST_NAME_MAX_LENGTH) return undefined;
  const labels = name.split(".");
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label))) return undefined;
  if (/^[0-9]+$/.test(labels.at(-1) ?? "")) return undefined;
  return labels;
}
