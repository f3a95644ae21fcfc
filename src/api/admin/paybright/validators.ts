import { z } from "@medusajs/framework/zod"

/** Admin routes that take no query: anything sent is refused, naming it. */
export const AdminNoQuery = z.object({})

/** Admin actions that take no body (an empty JSON object is fine). */
export const AdminNoBody = z.object({}).optional()

/**
 * The shape of a save from Settings → PayBright. Values are checked again, all together, by the
 * provider's options schema (the same as medusa-config.ts), which names each wrong field.
 */
export const SaveSettingsBody = z
  .object({
    environment: z.enum(["sandbox", "production"]).optional(),
    apiKey: z.string().max(200).optional(),
    apiToken: z.string().max(500).optional(),
    captureMode: z.enum(["in_store", "virtual_card"]).optional(),
    captureOn: z.enum(["shipment", "fulfillment", "manual"]).optional(),
    cardProcessorType: z.enum(["none", "stripe", "manual"]).optional(),
    cardProcessorSecretKey: z.string().max(500).optional(),
    shopName: z.string().max(200).optional(),
    currencies: z.array(z.string().max(10)).max(20).optional(),
    minOrderAmount: z.string().max(20).nullable().optional(),
    maxOrderAmount: z.string().max(20).nullable().optional(),
    financingMonths: z
      .union([z.number(), z.string().max(20)])
      .nullable()
      .optional(),
    financingApr: z.string().max(20).nullable().optional(),
    financingSetupFee: z.string().max(20).nullable().optional(),
    financingMonthlyFee: z.string().max(20).nullable().optional(),
    financingMinAmount: z.string().max(20).nullable().optional(),
    promotionalWidgetKey: z.string().max(200).nullable().optional(),
  })
  .strict()
export type SaveSettingsBody = z.infer<typeof SaveSettingsBody>

/** Body of POST /admin/paybright/records/:id/resolve: what the PayBright portal shows. */
export const resolveRecordBody = z.object({ lender_shows: z.enum(["done", "nothing"]) }).strict()
export type ResolveRecordBody = z.infer<typeof resolveRecordBody>
