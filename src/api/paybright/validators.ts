import { z } from "@medusajs/framework/zod"

/**
 * The lender's result as a form body (the callback): every field a single text value. A repeated
 * or nested field is refused here, naming it; which fields are needed is the handler's to say,
 * after the signature.
 */
export const ApplicationResultBody = z.record(
  z.string().max(100),
  z.string({ error: "must be a single text value" }).max(2048, "must be at most 2048 characters")
)

/** The `ctx` token the plugin put in the URLs it gave the lender. */
export const CallbackQuery = z.object({ ctx: z.string().max(1024).optional() })

/**
 * The shopper's return (the result in the query) and cancellation. Whatever arrives is taken
 * here and judged by the handler, because a shopper is always sent back to the storefront, never
 * shown an error page.
 */
export const ShopperReturnQuery = z.record(z.string(), z.unknown())
