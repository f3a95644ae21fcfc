import { z } from "@medusajs/framework/zod"

export const APPROVAL_STATES = ["approved", "ordered", "orphaned", "voided", "handled"] as const

/** GET /admin/paybright/approvals */
export const AdminListApprovalsQuery = z.object({
  state: z.enum(APPROVAL_STATES).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).default(0),
})
export type AdminListApprovalsQueryType = z.infer<typeof AdminListApprovalsQuery>
