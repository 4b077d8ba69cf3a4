import type { ComponentChildren } from "preact";
import { useId } from "preact/hooks";

const RULED = { borderBottom: "1px solid var(--line)", padding: "0.25rem 0 0.75rem" };

/** One thing the customer owns, named by its heading; cards stack at any width, where tables would scroll. */
export function Card(props: { heading: ComponentChildren; children: ComponentChildren }) {
  const id = useId();
  return (
    <article aria-labelledby={id} style={RULED}>
      <h2 id={id}>{props.heading}</h2>
      {props.children}
    </article>
  );
}
