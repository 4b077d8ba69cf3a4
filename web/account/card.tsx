import type { ComponentChildren } from "preact";
import { useId } from "preact/hooks";

/** One thing the customer owns, named by its heading; cards stack at any width, where tables would scroll. */
export function Card(props: { heading: ComponentChildren; children: ComponentChildren }) {
  const id = useId();
  return (
    <article aria-labelledby={id} class="card">
      <h2 id={id}>{props.heading}</h2>
      {props.children}
    </article>
  );
}
