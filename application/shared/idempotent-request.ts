import { canonicalJson } from "../../domain/checkout/canonical-json.ts";
import { sha256Hex } from "./secrets-in-links.ts";

/** What tells two request bodies apart, whatever the order of their fields. */
export const requestHash = (request: unknown): Promise<string> => sha256Hex(canonicalJson(request));
