import type { NewEmail } from "../mail/ports.ts";
import type { LicenseMailFacts, LicenseNoticeKind, NotificationOutboxMessage } from "./ports.ts";
import type { CommonMailLinks } from "./subscription-email.ts";
import { formatDay } from "./subscription-email.ts";

/** A download link made for an email: it lasts longer than one made for a page, and says until when. */
export interface EmailDownloadLink {
  readonly url: string;
  readonly expires_at: Date;
}

/**
 * The email telling a license holder that the shop suspended, reinstated or reissued the license;
 * a reissue carries the new key. Keyed by the notification, so it is emailed once.
 */
export function licenseEmail(
  message: NotificationOutboxMessage & { readonly kind: LicenseNoticeKind },
  facts: LicenseMailFacts,
  common: CommonMailLinks,
): NewEmail {
  return {
    key: `notification:${message.id}`,
    template: message.kind,
    to: facts.customer_email,
    data: {
      customer_name: facts.customer_name,
      product_name: facts.product_name,
      order_url: common.orderUrl,
      account_label: common.accountLabel,
      account_url: common.accountUrl,
      ...(message.kind === "license.reissued" ? { license_key: facts.license_key } : {}),
    },
  };
}

/**
 * A license delivery's ready email: the key itself and a download link, so a customer who loses
 * the account page still has both. Both values are erased from the stored email once it is sent.
 */
export function licenseReadyEmail(
  message: NotificationOutboxMessage,
  facts: { readonly customer_email: string; readonly customer_name: string; readonly product_name: string },
  licenseKey: string,
  download: EmailDownloadLink,
  common: CommonMailLinks,
): NewEmail {
  return {
    key: `notification:${message.id}`,
    template: "fulfillment.ready_license",
    to: facts.customer_email,
    data: {
      customer_name: facts.customer_name,
      product_name: facts.product_name,
      license_key: licenseKey,
      download_url: download.url,
      download_expires: formatDay(download.expires_at.toISOString()),
      order_url: common.orderUrl,
      account_label: common.accountLabel,
      account_url: common.accountUrl,
    },
  };
}
