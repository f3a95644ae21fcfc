import { defineMiddlewares } from "@medusajs/framework/http"

/**
 * The lender's callback posts a form; the raw body is kept so the provider can see exactly
 * what was received.
 */
export default defineMiddlewares({
  routes: [
    {
      method: ["POST"],
      matcher: "/paybright/callback",
      bodyParser: { preserveRawBody: true, sizeLimit: "64kb" },
    },
  ],
})
