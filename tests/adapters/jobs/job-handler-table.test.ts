import { describe, expect, test } from "bun:test";
import { handlesByKind } from "../../../adapters/jobs/job-handler-table.ts";
import { PermanentJobFailure } from "../../../application/shared/errors.ts";
import { defineJob } from "../../../application/shared/jobs.ts";
import { firstRun } from "../../support/jobs.ts";

const greetJob = defineJob({
  kind: "greet",
  read: (fields) => ({ name: fields.string("name"), loud: fields.boolean("loud", false) }),
  dedupeKey: ({ name }) => `greet:${name}`,
});

describe("the worker's handler table", () => {
  test("gives each kind's handler its payload as the kind's type reads it back, fallbacks filled in", async () => {
    const seen: unknown[] = [];
    const table = handlesByKind({ greet: greetJob }, { greet: async (payload) => void seen.push(payload) });
    await table.get("greet")?.({ name: "Ada" }, firstRun());
    expect(seen).toEqual([{ name: "Ada", loud: false }]);
    expect([...table.keys()]).toEqual(["greet"]);
  });

  test("a malformed stored payload fails for good before the handler runs", async () => {
    let ran = false;
    const table = handlesByKind(
      { greet: greetJob },
      {
        greet: async () => {
          ran = true;
        },
      },
    );
    const failure = await (async () => table.get("greet")?.({ name: 42 }, firstRun()))().catch((error) => error);
    expect(failure).toBeInstanceOf(PermanentJobFailure);
    expect(ran).toBe(false);
  });
});
