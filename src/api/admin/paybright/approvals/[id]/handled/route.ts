import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { toAdminApproval } from "../../../../../../views/approval-list"
import { markApprovalHandledWorkflow } from "../../../../../../workflows"

/** POST /admin/paybright/approvals/:id/handled: the merchant cancelled the orphaned contract in the PayBright portal. */
export const POST = async (req: AuthenticatedMedusaRequest, res: MedusaResponse) => {
  const { result } = await markApprovalHandledWorkflow(req.scope).run({
    input: { approval_id: req.params.id, actor: req.auth_context.actor_id },
  })
  res.json({ approval: toAdminApproval(result) })
}
