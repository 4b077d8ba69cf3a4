/**
 * The project's two OpenAPI documents: the provider contract (written by hand) and the
 * marketplace API (generated from the routes), with the TypeScript types generated from each.
 */
import { Validator } from "@seriousme/openapi-schema-validator";
import Ajv2020 from "ajv/dist/2020";
import { projectPath } from "../../adapters/asset-paths.ts";
import { createOfflineApp } from "./offline-app.ts";

export const OPENAPI_DOCUMENTS = [
  { source: "openapi/provider.yaml", types: "openapi/generated/provider.ts" },
  { source: "openapi/marketplace.json", types: "openapi/generated/marketplace.ts" },
] as const;

/** The document the marketplace serves at /openapi/json, built without a database. */
export async function servedMarketplaceDocument(): Promise<unknown> {
  const response = await createOfflineApp("openapi-document").handle(new Request("http://localhost/openapi/json"));
  if (response.status !== 200) throw new Error(`OpenAPI document not served: ${response.status}`);
  return response.json();
}

type Json = Record<string, unknown>;

/** Every Schema Object of a document: `components.schemas` and each `schema` of an operation, header or parameter. */
function schemaObjects(node: unknown, at: string, found: [string, unknown][]): [string, unknown][] {
  if (node === null || typeof node !== "object") return found;
  for (const [key, value] of Object.entries(node as Json)) {
    const path = `${at}/${key}`;
    if (key === "schema") found.push([path, value]);
    else if (key === "schemas" && at === "/components") {
      for (const [name, schema] of Object.entries(value as Json)) found.push([`${path}/${name}`, schema]);
    } else schemaObjects(value, path, found);
  }
  return found;
}

/**
 * What an independent validator finds wrong: the document against the official OpenAPI schema
 * (structure, and that every `$ref` resolves), then each Schema Object against the JSON Schema
 * 2020-12 meta-schema, which the OpenAPI schema leaves unchecked.
 */
export async function validationProblems(source: string): Promise<string[]> {
  const validator = new Validator();
  const result = await validator.validate(projectPath(source));
  if (!result.valid) {
    const errors = typeof result.errors === "string" ? [result.errors] : (result.errors ?? []);
    return errors.map((error) =>
      typeof error === "string" ? error : `${error.instancePath} ${error.message ?? error.keyword}`,
    );
  }
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  return schemaObjects(validator.specification, "", []).flatMap(([path, schema]) =>
    ajv.validateSchema(schema as Json) ? [] : [`${path}: ${ajv.errorsText(ajv.errors)}`],
  );
}
