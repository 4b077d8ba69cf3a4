import { Elysia, t } from "elysia";
import type { ExchangeRecorder } from "./exchange-recorder.ts";

/**
 * `/__sim/gateway_exchanges`: what the sandboxes said and heard, for checking them against the
 * gateways' official types. Recording is off until a `POST {"recording": true}` turns it on.
 */
export function createExchangeControlRoutes(recorder: ExchangeRecorder) {
  const state = () => ({ recording: recorder.recording, ...recorder.entries() });
  return new Elysia().get("/__sim/gateway_exchanges", state).post(
    "/__sim/gateway_exchanges",
    ({ body }) => {
      if (body.clear === true) recorder.clear();
      if (body.recording !== undefined) recorder.setRecording(body.recording);
      return { recording: recorder.recording, kept: recorder.entries().exchanges.length };
    },
    {
      body: t.Object(
        { recording: t.Optional(t.Boolean()), clear: t.Optional(t.Boolean()) },
        { additionalProperties: false },
      ),
    },
  );
}
