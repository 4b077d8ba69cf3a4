import { useState } from "preact/hooks";

export type Pager = ReturnType<typeof usePager>;

/**
 * Cursor paging through a list whose filters are summed up in `filterKey`: a new filter starts
 * again at the first page, in the same render, so the old cursor is never sent with it.
 */
export function usePager(filterKey: string) {
  const [state, setState] = useState<{ key: string; trail: readonly string[] }>({ key: filterKey, trail: [] });
  const trail = state.key === filterKey ? state.trail : [];
  return {
    cursor: trail.at(-1),
    hasPrevious: trail.length > 0,
    next: (cursor: string) => setState({ key: filterKey, trail: [...trail, cursor] }),
    previous: () => setState({ key: filterKey, trail: trail.slice(0, -1) }),
  };
}

export function PageLinks(props: { pager: Pager; next: string | null }) {
  const { pager, next } = props;
  if (!pager.hasPrevious && !next) return null;
  return (
    <nav aria-label="Pages" class="toolbar">
      {pager.hasPrevious ? (
        <button type="button" class="secondary" onClick={pager.previous}>
          Previous page
        </button>
      ) : null}
      {next ? (
        <button type="button" class="secondary" onClick={() => pager.next(next)}>
          Next page
        </button>
      ) : null}
    </nav>
  );
}
