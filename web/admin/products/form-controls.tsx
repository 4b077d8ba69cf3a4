import { useId } from "preact/hooks";

const describedBy = (id: string, hint?: string, error?: string) =>
  [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined;

function Notes(props: { id: string; hint?: string | undefined; error?: string | undefined }) {
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

const RequiredMark = () => (
  <span class="required" aria-hidden="true">
    {" "}
    *
  </span>
);

/** A labelled checkbox with its help text and the API's error for it. */
export function CheckField(props: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  hint?: string | undefined;
  error?: string | undefined;
  required?: boolean;
}) {
  const id = useId();
  return (
    <div class="field">
      <div class="check">
        <input
          id={id}
          type="checkbox"
          checked={props.checked}
          aria-invalid={props.error ? true : undefined}
          aria-describedby={describedBy(id, props.hint, props.error)}
          onChange={(event) => props.onChange(event.currentTarget.checked)}
        />
        <label for={id}>
          {props.label}
          {props.required ? <RequiredMark /> : null}
        </label>
      </div>
      <Notes id={id} hint={props.hint} error={props.error} />
    </div>
  );
}

/** A labelled select that may be left unset, with the required mark, help text and the API's error. */
export function ChoiceField(props: {
  label: string;
  value: string;
  choices: readonly string[];
  onChange: (value: string | undefined) => void;
  hint?: string | undefined;
  error?: string | undefined;
  required?: boolean;
}) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>
        {props.label}
        {props.required ? <RequiredMark /> : null}
      </label>
      <select
        id={id}
        value={props.value}
        aria-required={props.required ? true : undefined}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={describedBy(id, props.hint, props.error)}
        onChange={(event) => props.onChange(event.currentTarget.value || undefined)}
      >
        <option value="">Not set</option>
        {props.choices.map((choice) => (
          <option key={choice} value={choice}>
            {choice}
          </option>
        ))}
      </select>
      <Notes id={id} hint={props.hint} error={props.error} />
    </div>
  );
}
