import type { ComponentChildren, InputHTMLAttributes, TargetedEvent } from "preact";
import { useId } from "preact/hooks";

/** What every control shows beside itself: help text, and the API's error for it. */
interface Notes {
  hint?: string | undefined;
  error?: string | undefined;
  required?: boolean | undefined;
}

/** The attributes tying a control to its label's mark, its help text and its error, for screen readers. */
const tied = (id: string, notes: Notes) => ({
  id,
  "aria-required": notes.required ? true : undefined,
  "aria-invalid": notes.error ? true : undefined,
  "aria-describedby":
    [notes.hint ? `${id}-hint` : "", notes.error ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined,
});

function Label(props: { id: string; required?: boolean | undefined; children: ComponentChildren }) {
  return (
    <label for={props.id}>
      {props.children}
      {props.required ? (
        <span class="required" aria-hidden="true">
          {" "}
          *
        </span>
      ) : null}
    </label>
  );
}

function Beside(props: Notes & { id: string }) {
  return (
    <>
      {props.hint ? (
        <small id={`${props.id}-hint`} class="hint">
          {props.hint}
        </small>
      ) : null}
      {props.error ? (
        <small id={`${props.id}-error`} class="error">
          {props.error}
        </small>
      ) : null}
    </>
  );
}

/** The input attributes the console uses. */
interface InputProps {
  type?: "text" | "email" | "password" | "number" | "url" | "datetime-local";
  value?: string | number;
  name?: string;
  autocomplete?: string;
  placeholder?: string;
  min?: number;
  max?: number;
  step?: number | "any";
  onInput?: (event: TargetedEvent<HTMLInputElement, Event>) => void;
}

/** A labelled input with its help text and the API's error for it. */
export function Field(props: InputProps & Notes & { label: string }) {
  const { label, hint, error, required, ...input } = props;
  const id = useId();
  // Preact types each input type apart; one field serves them all.
  const attributes = { ...input, ...tied(id, props), required } as unknown as InputHTMLAttributes<HTMLInputElement>;
  return (
    <div class="field">
      <Label id={id} required={required}>
        {label}
      </Label>
      <input {...attributes} />
      <Beside id={id} hint={hint} error={error} />
    </div>
  );
}

/** A labelled select over `options` (value and label). */
export function Select(
  props: Notes & {
    label: string;
    value: string;
    options: readonly (readonly [string, string])[];
    onChange: (value: string) => void;
  },
) {
  const id = useId();
  return (
    <div class="field">
      <Label id={id} required={props.required}>
        {props.label}
      </Label>
      <select {...tied(id, props)} value={props.value} onChange={(event) => props.onChange(event.currentTarget.value)}>
        {props.options.map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
      <Beside id={id} hint={props.hint} error={props.error} />
    </div>
  );
}

/** A labelled checkbox. */
export function Checkbox(props: Notes & { label: string; checked: boolean; onChange: (checked: boolean) => void }) {
  const id = useId();
  return (
    <div class="field">
      <div class="check">
        <input
          {...tied(id, props)}
          type="checkbox"
          checked={props.checked}
          onChange={(event) => props.onChange(event.currentTarget.checked)}
        />
        <Label id={id} required={props.required}>
          {props.label}
        </Label>
      </div>
      <Beside id={id} hint={props.hint} error={props.error} />
    </div>
  );
}

/** A labelled multi-line text box. */
export function TextArea(
  props: Notes & { label: string; value: string; onInput: (value: string) => void; rows?: number },
) {
  const id = useId();
  return (
    <div class="field">
      <Label id={id} required={props.required}>
        {props.label}
      </Label>
      <textarea
        {...tied(id, props)}
        rows={props.rows ?? 4}
        value={props.value}
        onInput={(event) => props.onInput(event.currentTarget.value)}
      />
      <Beside id={id} hint={props.hint} error={props.error} />
    </div>
  );
}

/** A field for choosing a password, with the policy's words beside it and the API's refusal of it. */
export function NewPasswordField(props: {
  label: string;
  error: string | undefined;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <Field
      label={props.label}
      type="password"
      autocomplete="new-password"
      required
      hint="At least 12 characters. A few unrelated words make a good one."
      error={props.error}
      value={props.value}
      onInput={(e) => props.onChange(e.currentTarget.value)}
    />
  );
}
