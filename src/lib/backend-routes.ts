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

/**
 * The routes a hosted application sends the lender's result and the shopper back to. They learn
 * which checkout a result or a cancellation belongs to from the sealed token (`ctx`), even once
 * Medusa has deleted the session; it carries no cart id.
 */
export function returnUrls(
  options: Pick<PayBrightOptions, "backendUrl">,
  returnToken: string
): { callback: string; complete: string; cancel: string } {
  const back = `?ctx=${encodeURIComponent(returnToken)}`
  return {
    callback: `${options.backendUrl}${RETURN_ROUTES.callback}${back}`,
    complete: `${options.backendUrl}${RETURN_ROUTES.complete}${back}`,
    cancel: `${options.backendUrl}${RETURN_ROUTES.cancel}${back}`,
  }
}
