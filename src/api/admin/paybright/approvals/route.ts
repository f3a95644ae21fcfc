import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { listApprovals } from "../../../../views/approval-list"
import type { AdminListApprovalsQueryType } from "./validators"

/**
 * GET /admin/paybright/approvals?state=orphaned&limit=&offset=: the contracts the lender
 * approved, newest first; orphans carry what happened and what to do.
 */
export const GET = async (
  req: AuthenticatedMedusaRequest<unknown, AdminListApprovalsQueryType>,
  res: MedusaResponse
) => {
  res.json(await listApprovals(req.scope, req.validatedQuery as AdminListApprovalsQueryType))
}
