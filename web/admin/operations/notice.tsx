import { useState } from "preact/hooks";
import { useLoad } from "../../shared/load.ts";

/**
 * What the last action on a page did, said after the list reloads: the row that showed the
 * action's own outcome may have left the list by then.
 */
export const Notice = (props: { text: string }) => (
  <p role="status" class="note">
    {props.text}
  </p>
);

/**
 * A page of one record that actions change: its load, and `changed`, which says what an action did
 * (shown by `Notice`) and loads the record again.
 */
export function useChangingRecord<T>(load: () => Promise<T>, deps: readonly unknown[]) {
  const [notice, setNotice] = useState("");
  const { result, reload } = useLoad(load, deps);
  const changed = (text: string) => {
    setNotice(text);
    reload();
  };
  return { result, notice, changed };
}
