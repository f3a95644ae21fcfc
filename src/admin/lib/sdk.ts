import Medusa from "@medusajs/js-sdk"

/** The one client every PayBright admin page and widget fetches through: the admin's own session. */
export const sdk = new Medusa({
  baseUrl: import.meta.env.VITE_BACKEND_URL || "/",
  debug: import.meta.env.DEV,
  auth: { type: "session" },
})
