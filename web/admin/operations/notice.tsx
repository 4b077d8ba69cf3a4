/**
 * What the last action on a page did, said after the list reloads: the row that showed the
 * action's own outcome may have left the list by then.
 */
export const Notice = (props: { text: string }) => (
  <p role="status" class="note">
    {props.text}
  </p>
);
