import { makeAdminLicenses } from "../../application/licensing/admin-licenses.ts";
import { makeLicenseService } from "../../application/licensing/license-service.ts";
import { createLicenseDownloadAdapter } from "../fulfillment/license-download-adapter.ts";
import { createLicenseFileSigner } from "../licensing/license-file.ts";
import { createLicenseSigner } from "../licensing/license-signer.ts";
import { createPostgresLicenseActivations } from "../postgres/license-activations.ts";
import { createPostgresLicenseAdminReader } from "../postgres/license-admin.ts";
import { createPostgresLicenseWriter } from "../postgres/license-writer.ts";
import { createDownloadLinks } from "../security/download-tokens.ts";
import type { Platform } from "./platform.ts";

/** Signed licenses, activations, the license driver and signed download links. */
export function wireLicensing({ infra, config, sql, clock, uow, logger }: Platform) {
  const signer = createLicenseSigner(infra.licenseKeys);
  const emailLinks = createDownloadLinks({
    secret: infra.jwtSecret,
    ttlSeconds: config.emailDownloadLinkTtlHours * 3600,
    baseUrl: config.publicBaseUrl,
  });
  return {
    signer,
    /** A download link for an email, which is read later than a page: `EMAIL_DOWNLOAD_LINK_TTL_HOURS`. */
    emailDownloadLink: async (entitlementId: string, customerId: string) => ({
      url: await emailLinks.link(entitlementId, customerId),
      expires_at: new Date(clock().getTime() + config.emailDownloadLinkTtlHours * 3_600_000),
    }),
    downloads: createDownloadLinks({
      secret: infra.jwtSecret,
      ttlSeconds: config.downloadLinkTtlSeconds,
      baseUrl: config.publicBaseUrl,
    }),
    useCases: {
      ...makeAdminLicenses({ reader: createPostgresLicenseAdminReader(sql), uow, signer, clock, log: logger }),
      licensing: makeLicenseService({
        store: createPostgresLicenseActivations(sql),
        verifier: signer,
        files: createLicenseFileSigner(infra.licenseKeys),
        clock,
      }),
    },
    drivers: {
      license_download: createLicenseDownloadAdapter({
        licenses: createPostgresLicenseWriter(sql),
        signer,
        clock,
        upgradeGraceHours: config.licenseUpgradeGraceHours,
      }),
    },
  };
}

export type LicensingFeature = ReturnType<typeof wireLicensing>;
