import { describe, expect, test } from "bun:test";
import { PermanentJobFailure } from "../../../application/shared/errors.ts";
import { defineJob } from "../../../application/shared/jobs.ts";
import { enqueued } from "../../support/jobs.ts";

const exampleJob = defineJob({
  kind: "example",
  read: (fields) => ({
    id: fields.string("id"),
    count: fields.number("count", 0),
    loud: fields.boolean("loud", false),
    mode: fields.oneOf("mode", ["fast", "slow"]),
  }),
  dedupeKey: ({ id, mode }) => `example:${id}:${mode}`,
  maxAttempts: 5,
});

describe("a job type", () => {
  test("makes its job: its kind, the payload as given and the key its scheme gives", () => {
    const payload = { id: "a-1", count: 2, loud: true, mode: "fast" as const };
    expect(enqueued(exampleJob(payload))).toEqual({
      kind: "example",
      payload,
      dedupeKey: "example:a-1:fast",
      maxAttempts: 5,
    });
    expect(exampleJob.dedupeKey(payload)).toBe("example:a-1:fast");
  });

  test("an enqueue's own run time and attempt limit win over the kind's", () => {
    const runAt = new Date("2026-01-01T00:00:00.000Z");
    const job = exampleJob({ id: "a-1", count: 0, loud: false, mode: "slow" }, { runAt, maxAttempts: 2 });
    expect(job).toMatchObject({ runAt, maxAttempts: 2 });
  });

  test("a kind without its own attempt limit leaves the queue's, and sets no run time", () => {
    const plain = defineJob({
      kind: "plain",
      read: (fields) => ({ id: fields.string("id") }),
      dedupeKey: ({ id }) => id,
    });
    expect(Object.keys(plain({ id: "x" })).sort()).toEqual(["dedupeKey", "kind", "payload"]);
  });

  test("reads a stored payload back, with the fallbacks for fields stored without them", () => {
    expect(exampleJob.read({ id: "a-1", count: 3, loud: true, mode: "slow" })).toEqual({
      id: "a-1",
      count: 3,
      loud: true,
      mode: "slow",
    });
    expect(exampleJob.read({ id: "a-1", mode: "fast" })).toEqual({ id: "a-1", count: 0, loud: false, mode: "fast" });
  });

  test.each([
    ["a required field missing", { mode: "fast" }, "id"],
    ["a field of the wrong type", { id: 7, mode: "fast" }, "id"],
    ["a wrong type where a fallback exists", { id: "a-1", count: "3", mode: "fast" }, "count"],
    ["a value outside its set", { id: "a-1", mode: "sideways" }, "mode"],
  ])("refuses %s for good: the job is dead at once", (_, stored, field) => {
    expect(() => exampleJob.read(stored)).toThrow(
      new PermanentJobFailure(`The example job's payload has no valid ${field}.`),
    );
    expect(() => exampleJob.read(stored)).toThrow(PermanentJobFailure);
  });
});
