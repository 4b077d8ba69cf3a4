import type { FormErrors } from "./form-errors.ts";

/**
 * What the API refused in a form: the summary, and the problems whose field the form does not show
 * (the others stand beside their fields).
 */
export function RefusalAlert(props: { lead: string; errors: FormErrors; shown: readonly string[] }) {
  const unplaced = props.errors.unplaced(props.shown);
  return (
    <div role="alert" class="error">
      <p>
        {props.lead} {props.errors.summary}
        {props.errors.count > unplaced.length ? " Each problem is shown beside its field." : ""}
      </p>
      {unplaced.length > 0 ? (
        <ul>
          {unplaced.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
