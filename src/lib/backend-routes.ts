import type { PayBrightOptions } from "./options"

/** Backend routes the lender and the shopper come back to. */
export const RETURN_ROUTES = {
  callback: "/paybright/callback",
  complete: "/paybright/return",
  cancel: "/paybright/cancel",
} as const

/** Where the lender posts the result of an order-management call (a void) too: the callback route, which answers it 200. */
export function orderManagementCallbackUrl(options: Pick<PayBrightOptions, "backendUrl">): string {
  return `${options.backendUrl}${RETURN_ROUTES.callback}`
}
