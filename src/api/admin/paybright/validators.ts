import { z } from "@medusajs/framework/zod"

/** Body of POST /admin/paybright/records/:id/resolve: what the PayBright portal shows. */
export const resolveRecordBody = z.object({ lender_shows: z.enum(["done", "nothing"]) }).strict()
export type ResolveRecordBody = z.infer<typeof resolveRecordBody>
