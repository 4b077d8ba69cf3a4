import { DomainError, fixedError } from "../shared/domain-error.ts";

export class ProductNotFound extends fixedError("PRODUCT_NOT_FOUND", "not_found", "The product does not exist.") {}

export class SlugTaken extends DomainError {
  readonly code = "SLUG_TAKEN";
  readonly category = "conflict";
  constructor(slug: string) {
    super(`Another product already uses the slug "${slug}".`, [
      { path: "/slug", code: "SLUG_TAKEN", message: "is already used by another product" },
    ]);
  }
}
