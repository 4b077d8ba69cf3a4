import type { CustomerInstallation, CustomerLicense } from "../../application/customers/ports.ts";

export const toLicenseBody = (license: CustomerLicense & { readonly download_url: string | null }) => ({
  ...license,
  expires_at: license.expires_at?.toISOString() ?? null,
  created_at: license.created_at.toISOString(),
});

export const toInstallationBody = (installation: CustomerInstallation) => ({
  ...installation,
  created_at: installation.created_at.toISOString(),
});
