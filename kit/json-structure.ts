/**
 * Limits on the shape of a JSON body, checked on the text before `JSON.parse`. No body any route
 * accepts comes near them; an attacker's body does: 100,000 nested arrays overflow the stack of
 * every recursive walker after the parser (validators, serializers), and 150,000 array elements
 * make a validator enumerate as many errors.
 */
export const JSON_LIMITS = {
  maxDepth: 64,
  /** Elements of one array or members of one object. */
  maxMembers: 1000,
  /** Characters of one string as sent, escapes included (a 20,000-character field escaped as \uXXXX is 120,000). */
  maxStringLength: 256 * 1024,
} as const;

export type JsonLimits = { readonly [K in keyof typeof JSON_LIMITS]: number };

export interface StructureViolation {
  readonly code: "BODY_TOO_DEEP" | "BODY_TOO_MANY_MEMBERS" | "BODY_STRING_TOO_LONG";
  /** What is wrong, to follow "the body": "nests deeper than 64 levels". */
  readonly reason: string;
}

const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const OPEN_OBJECT = 123;
const CLOSE_OBJECT = 125;
const OPEN_ARRAY = 91;
const CLOSE_ARRAY = 93;

/**
 * One linear pass that stops at the first limit crossed, so a hostile body costs no more than
 * reading it. It never throws: text that is not JSON passes here and fails in the parser.
 */
export function findStructureViolation(text: string, limits: JsonLimits = JSON_LIMITS): StructureViolation | null {
  const members: number[] = [0];
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const start = i;
      for (i++; i < text.length; i++) {
        const s = text.charCodeAt(i);
        if (s === BACKSLASH) i++;
        else if (s === QUOTE) break;
      }
      if (i - start - 1 > limits.maxStringLength) {
        return {
          code: "BODY_STRING_TOO_LONG",
          reason: `holds a string longer than ${limits.maxStringLength} characters`,
        };
      }
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      depth++;
      if (depth > limits.maxDepth) {
        return { code: "BODY_TOO_DEEP", reason: `nests deeper than ${limits.maxDepth} levels` };
      }
      members[depth] = 0;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      if (depth > 0) depth--;
    } else if (c === COMMA) {
      const count = (members[depth] ?? 0) + 1;
      members[depth] = count;
      if (count >= limits.maxMembers) {
        return {
          code: "BODY_TOO_MANY_MEMBERS",
          reason: `holds an array or object of more than ${limits.maxMembers} members`,
        };
      }
    }
  }
  return null;
}
