import type { MedusaContainer } from "@medusajs/framework/types"
import { reportExpiringAuthorizations } from "../lib/authorization-expiry"

/** Every morning: warn about PayBright authorizations close to the lender's 30-day limit. */
export default async function paybrightAuthorizationExpiry(container: MedusaContainer) {
  await reportExpiringAuthorizations(container)
}

export const config = {
  name: "paybright-authorization-expiry",
  schedule: "0 8 * * *",
}
