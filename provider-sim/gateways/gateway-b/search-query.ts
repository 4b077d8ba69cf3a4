import { StripeError } from "./errors.ts";
import type { StripeProduct } from "./model.ts";

/** A quoted string in Stripe's query language; a backslash escapes the next character. */
const QUOTED = String.raw`'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"`;
const CLAUSE = new RegExp(String.raw`^(?:metadata\[(?:${QUOTED})\]|(name|active)):(?:${QUOTED})$`);

const unquote = (value: string) => value.replace(/\\(.)/g, "$1");

/**
 * The subset of Stripe's search query language the sandbox understands: clauses joined by AND,
 * each `metadata['key']:'value'`, `name:'value'` or `active:'true'`, matched exactly.
 */
export function productMatcher(query: string): (product: StripeProduct) => boolean {
  const clauses = query
    .trim()
    .split(/\s+AND\s+/)
    .map((clause) => {
      const match = CLAUSE.exec(clause.trim());
      if (!match) throw StripeError.invalid("query", `the sandbox cannot search for ${JSON.stringify(clause)}`);
      const [, singleKey, doubleKey, field, single, double] = match;
      const key = singleKey ?? doubleKey;
      const value = unquote(single ?? double ?? "");
      return (product: StripeProduct) => {
        if (key !== undefined) return product.metadata[unquote(key)] === value;
        return field === "name" ? product.name === value : String(product.active) === value;
      };
    });
  return (product) => clauses.every((matches) => matches(product));
}
