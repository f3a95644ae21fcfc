import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { cartOfCollection } from "../../../lib/find-checkout"
import type { Logger } from "@medusajs/framework/types"
import { providersAsConfigured, providersInForce } from "../../../lib/provider-registry"
import { SettingsUnreadableError } from "../../../lib/unreadable-settings"
import { checkoutUrl } from "../../../lib/storefront-urls"
import { readReturnToken } from "../../../lib/return-token"

/**
 * GET /paybright/cancel?ctx=…: the shopper left the hosted application (x_url_cancel). Nothing
 * changes; the shopper goes back to checkout, told it was cancelled. Only a fresh token the store
 * sealed reveals anything of the checkout (its country, for the storefront's path).
 */
export const GET = async (req: MedusaRequest, res: MedusaResponse) => {
  const token = (req.validatedQuery as Record<string, unknown>).ctx
  // Where this process cannot use the saved settings, medusa-config.ts still names the storefront
  // (the return does the same); the detail stays in the log.
  const registrations = await providersInForce(req.scope).catch((error: unknown) => {
    if (!(error instanceof SettingsUnreadableError)) throw error
    req.scope.resolve<Logger>("logger").error(`PayBright: a shopper's cancel used medusa-config.ts: ${error.message}`)
    return providersAsConfigured(req.scope)
  })
  const opened = registrations
    .map(({ options }) => ({ options, context: readReturnToken(options.apiToken, token) }))
    .find(({ context }) => context?.fresh)
  const settings = opened?.options ?? registrations[0]?.options
  if (!settings) {
    res.status(404).json({ message: "PayBright is not set up on this store." })
    return
  }
  // The country only picks the storefront's path: without it the shopper still goes back to checkout.
  const place = opened?.context
    ? await cartOfCollection(req.scope, opened.context.payment_collection_id).catch(() => ({ countryCode: undefined }))
    : {}
  res.redirect(303, checkoutUrl(settings, "cancelled", place.countryCode))
}
