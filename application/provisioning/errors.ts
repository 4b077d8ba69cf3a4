import { fixedError } from "../../domain/shared/domain-error.ts";

export class ProviderManagementDisabled extends fixedError(
  "PROVIDER_MANAGEMENT_DISABLED",
  "conflict",
  "Provider management is not enabled for this product (fulfillment_config.management.enabled).",
) {}

export class NotAProviderProduct extends fixedError(
  "NOT_A_PROVIDER_PRODUCT",
  "conflict",
  "Only multitenant_saas products are managed through a provider.",
) {}
