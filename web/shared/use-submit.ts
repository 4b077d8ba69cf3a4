import { useState } from "preact/hooks";
import { messageOf } from "./api.ts";

/**
 * A form's submission: busy while `run` runs, then its message. `run` may answer a message of its
 * own; a failure shows the API's, unless `handled` took the error (a field error shown by its field).
 */
export function useSubmit(run: () => Promise<string | undefined>, handled?: (error: unknown) => boolean) {
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState("");
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setMessage("");
    try {
      setMessage((await run()) ?? "");
    } catch (error) {
      if (!handled?.(error)) setMessage(messageOf(error));
    } finally {
      setBusy(false);
    }
  };
  return { busy, message, submit };
}
