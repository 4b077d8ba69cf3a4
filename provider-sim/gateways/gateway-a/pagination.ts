import { PaddleError } from "./errors.ts";

export interface PageQuery {
  readonly per_page?: string | undefined;
  readonly after?: string | undefined;
}

/** Paddle's cursor pagination over `items` in creation order: `after` is the last id already seen. */
export function paginate<T extends { readonly id: string }>(items: readonly T[], query: PageQuery, requestUrl: string) {
  const perPage = query.per_page === undefined ? 50 : Number(query.per_page);
  if (!Number.isInteger(perPage) || perPage < 1 || perPage > 200) {
    throw PaddleError.invalidField("per_page", "must be an integer from 1 to 200");
  }
  const start = query.after === undefined ? 0 : items.findIndex((item) => item.id === query.after) + 1;
  // An unknown `after` reads as the end of the list rather than restarting it.
  const data = start === 0 && query.after !== undefined ? [] : items.slice(start, start + perPage);
  const hasMore = start + data.length < items.length && data.length > 0;
  // Paddle always gives `next`, the page after the last one seen, even when `has_more` is false.
  const next = new URL(requestUrl);
  next.searchParams.set("per_page", String(perPage));
  const after = data.at(-1)?.id ?? query.after;
  if (after !== undefined) next.searchParams.set("after", after);
  return {
    data,
    pagination: {
      per_page: perPage,
      next: next.toString(),
      has_more: hasMore,
      estimated_total: items.length,
    },
  };
}

/** `?status=active,archived` → ["active", "archived"]. */
export const csv = (value: string | undefined) => (value === undefined || value === "" ? undefined : value.split(","));
