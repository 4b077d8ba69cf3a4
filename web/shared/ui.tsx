import type { ComponentChildren, InputHTMLAttributes, TargetedEvent } from "preact";
import { useId, useState } from "preact/hooks";
import { messageOf } from "./api.ts";
import type { Loading } from "./load.ts";

/** The data once loaded; meanwhile a polite "Loading…", or the failure as an alert. */
export function Loaded<T>(props: { result: Loading<T>; children: (data: T) => ComponentChildren }) {
  if (props.result.state === "loading") return <p aria-live="polite">Loading…</p>;
  if (props.result.state === "failed") return <ErrorNote error={props.result.error} />;
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
    try {
      const answer = await props.run();
      setOutcome({ ok: true, text: props.describe?.(answer) ?? "Done." });
      props.onDone?.(answer);
    } catch (error) {
      setOutcome({ ok: false, text: messageOf(error) });
    } finally {
      setBusy(false);
    }
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

/** The input attributes the console uses. */
interface InputProps {
  type?: "text" | "email" | "password" | "number" | "url" | "datetime-local";
  value?: string | number;
  name?: string;
  autocomplete?: string;
  required?: boolean;
  placeholder?: string;
  min?: number;
  max?: number;
  step?: number | "any";
  onInput?: (event: TargetedEvent<HTMLInputElement, Event>) => void;
}

/** A labelled input with its help text and the API's error for it, both tied to it for screen readers. */
export function Field(props: InputProps & { label: string; hint?: string; error?: string | undefined }) {
  const { label, hint, error, required, ...input } = props;
  const id = useId();
  const described = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ");
  return (
    <div class="field">
      <label for={id}>
        {label}
        {required ? (
          <span class="required" aria-hidden="true">
            {" "}
            *
          </span>
        ) : null}
      </label>
      <input
        {...({
          ...input,
          id,
          required,
          "aria-invalid": error ? true : undefined,
          "aria-describedby": described || undefined,
          // Preact types each input type apart; one field serves them all.
        } as unknown as InputHTMLAttributes<HTMLInputElement>)}
      />
      {hint ? (
        <small id={`${id}-hint`} class="hint">
          {hint}
        </small>
      ) : null}
      {error ? (
        <small id={`${id}-error`} class="error">
          {error}
        </small>
      ) : null}
    </div>
  );
}

/** A labelled select over `options` (value and label). */
export function Select(props: {
  label: string;
  value: string;
  options: readonly (readonly [string, string])[];
  onChange: (value: string) => void;
  error?: string | undefined;
  hint?: string;
}) {
  const id = useId();
  const described = [props.hint ? `${id}-hint` : "", props.error ? `${id}-error` : ""].filter(Boolean).join(" ");
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <select
        id={id}
        value={props.value}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={described || undefined}
        onChange={(event) => props.onChange(event.currentTarget.value)}
      >
        {props.options.map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
      {props.hint ? (
        <small id={`${id}-hint`} class="hint">
          {props.hint}
        </small>
      ) : null}
      {props.error ? (
        <small id={`${id}-error`} class="error">
          {props.error}
        </small>
      ) : null}
    </div>
  );
}

/** Wide tables scroll inside their box on a narrow screen instead of widening the page. */
export const TableBox = (props: { label: string; children: ComponentChildren }) => (
  // Focusable, so a keyboard can scroll it (axe: scrollable-region-focusable).
  // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus to scroll by keyboard.
  <section class="table-box" aria-label={props.label} tabIndex={0}>
    <table>{props.children}</table>
  </section>
);

/** A labelled checkbox. */
export function Checkbox(props: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  hint?: string;
}) {
  const id = useId();
  return (
    <div class="check">
      <input
        id={id}
        type="checkbox"
        checked={props.checked}
        aria-describedby={props.hint ? `${id}-hint` : undefined}
        onChange={(event) => props.onChange(event.currentTarget.checked)}
      />
      <label for={id}>{props.label}</label>
      {props.hint ? (
        <small id={`${id}-hint`} class="hint">
          {props.hint}
        </small>
      ) : null}
    </div>
  );
}

/** A labelled multi-line text box, with the API's error for it. */
export function TextArea(props: {
  label: string;
  value: string;
  onInput: (value: string) => void;
  rows?: number;
  error?: string | undefined;
  hint?: string;
}) {
  const id = useId();
  const described = [props.hint ? `${id}-hint` : "", props.error ? `${id}-error` : ""].filter(Boolean).join(" ");
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <textarea
        id={id}
        rows={props.rows ?? 4}
        value={props.value}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={described || undefined}
        onInput={(event) => props.onInput(event.currentTarget.value)}
      />
      {props.hint ? (
        <small id={`${id}-hint`} class="hint">
          {props.hint}
        </small>
      ) : null}
      {props.error ? (
        <small id={`${id}-error`} class="error">
          {props.error}
        </small>
      ) : null}
    </div>
  );
}
