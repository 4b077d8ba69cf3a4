import { makeLicenseService } from "../../application/licensing/license-service.ts";
import { createLicenseDownloadAdapter } from "../fulfillment/license-download-adapter.ts";
import { createLicenseFileSigner } from "../licensing/license-file.ts";
import { createLicenseSigner } from "../licensing/license-signer.ts";
import { createPostgresLicenseActivations } from "../postgres/license-activations.ts";
import { createPostgresLicenseWriter } from "../postgres/license-writer.ts";
import { createDownloadLinks } from "../security/download-tokens.ts";
import type { Platform } from "./platform.ts";

/** Signed licenses, activations, the license driver and signed download links. */
export function wireLicensing({ infra, config, sql, clock }: Platform) {
  const signer = createLicenseSigner(infra.licenseKeys);
  return {
    downloads: createDownloadLinks({
      secret: infra.jwtSecret,
      ttlSeconds: config.downloadLinkTtlSeconds,
      baseUrl: config.publicBaseUrl,
    }),
    useCases: {
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
