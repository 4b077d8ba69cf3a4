import type { OrderAccess } from "../../application/checkout/ports.ts";
import { constantTimeEqual, hmacSha256Hex } from "../../kit/hmac.ts";

/**
 * The signed part of a guest's order status link: an HMAC-SHA256 of the order id, keyed apart from
 * the JWT and download secrets by a context string. It does not expire, like the order number on a
 * receipt; rotating JWT_SECRET voids every such link.
 */
export function createOrderAccess(secret: string): OrderAccess {
  const key = `order-access:${secret}`;
  return {
    sign: (orderId) => hmacSha256Hex(key, orderId),
    async verify(orderId, token) {
      return constantTimeEqual(token, await hmacSha256Hex(key, orderId));
    },
  };
}
