import type { ComponentChildren } from "preact";

/** A list's filters, then the button that asks for the list again. */
export function Toolbar(props: { onRefresh: () => void; children?: ComponentChildren }) {
  return (
    <div class="toolbar">
      {props.children}
      <button type="button" class="secondary" onClick={props.onRefresh}>
        Refresh
      </button>
    </div>
  );
}
