import type { ComponentChildren } from "preact";
import { useState } from "preact/hooks";
import { messageOf } from "./api.ts";
import type { Loading } from "./load.ts";

/** The data once loaded; meanwhile a polite "Loading…", or the failure as an alert. */
export function Loaded<T>(props: { result: Loading<T>; children: (data: T) => ComponentChildren }) {
  if (props.result.state === "loading") return <p aria-live="polite">Loading…</p>;
  if (props.result.state === "failed")
    return (
      <>
        <ErrorNote error={props.result.error} />
        {props.result.stale === undefined ? null : props.children(props.result.stale)}
      </>
    );
  return <>{props.children(props.result.data)}</>;
}

export const ErrorNote = (props: { error: unknown }) => (
  <p role="alert" class="error">
    {messageOf(props.error)}
  </p>
);

/**
 * A button that runs one API call, is disabled while it runs and says how it went in a status
 * region beside it: `describe` words the answer, a failure shows the API's message.
 */
export function ActionButton<T>(props: {
  label: string;
  run: () => Promise<T>;
  describe?: (answer: T) => string;
  onDone?: (answer: T) => void;
  confirm?: string;
}) {
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | undefined>();
  const click = async () => {
    if (props.confirm && !window.confirm(props.confirm)) return;
    setBusy(true);
    setOutcome(undefined);
    let answer: T;
    try {
      answer = await props.run();
    } catch (error) {
      setOutcome({ ok: false, text: messageOf(error) });
      return;
    } finally {
      setBusy(false);
    }
    setOutcome({ ok: true, text: props.describe?.(answer) ?? "Done." });
    props.onDone?.(answer);
  };
  return (
    <span class="action">
      <button type="button" onClick={click} disabled={busy} aria-busy={busy}>
        {props.label}
      </button>
      <span role="status" class={outcome?.ok === false ? "error" : "note"}>
        {outcome?.text ?? ""}
      </span>
    </span>
  );
}

/**
 * A table under its column headings. Wide tables scroll inside their box on a narrow screen instead
 * of widening the page.
 */
export const TableBox = (props: { label: string; columns: readonly string[]; children: ComponentChildren }) => (
  // Focusable, so a keyboard can scroll it (axe: scrollable-region-focusable).
  // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus to scroll by keyboard.
  <section class="table-box" aria-label={props.label} tabIndex={0}>
    <table>
      <thead>
        <tr>
          {props.columns.map((column) => (
            <th key={column} scope="col">
              {column}
            </th>
          ))}
        </tr>
      </thead>
      {props.children}
    </table>
  </section>
);

/** A page opened from an emailed link whose address lost the link's token. */
export const MissingLinkToken = () => (
  <p role="alert" class="error">
    This address holds no link. Open the link from the email as it was sent.
  </p>
);
