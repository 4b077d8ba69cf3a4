import { expect, test } from "bun:test";
import { OPENAPI_DOCUMENTS, validationProblems } from "../../scripts/lib/openapi-documents.ts";

for (const { source } of OPENAPI_DOCUMENTS) {
  test(`${source} is valid OpenAPI 3.1 by an independent validator, each schema valid JSON Schema 2020-12`, async () => {
    expect(await validationProblems(source)).toEqual([]);
  });
}
