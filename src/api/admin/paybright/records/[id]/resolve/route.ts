import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { toMoneyRecord } from "../../../../../../lib/money-record-view"
import { findRecord } from "../../../../../../lib/record-queries"
import { resolveMoneyRecordWorkflow } from "../../../../../../workflows/resolve-money-record"
import { requirePolicies } from "../../../require-policies"
import { answeringSentences } from "../../../merchant-errors"
import type { ResolveRecordBody } from "../../../validators"

/**
 * POST /admin/paybright/records/:id/resolve `{ lender_shows: "done" | "nothing" }`: resolves an
 * in-doubt record. A capture or refund resolved makes or drops Medusa's Capture or Refund, so it
 * needs Medusa's own right to make one (capture:create, refund:create), beside payment:update.
 */
export const POST = answeringSentences(
  async (req: AuthenticatedMedusaRequest<ResolveRecordBody>, res: MedusaResponse) => {
    const record = await findRecord(req.scope, req.params.id)
    if (record.kind !== "void") await requirePolicies(req, [{ resource: record.kind, operation: "create" }])
    const { result } = await resolveMoneyRecordWorkflow(req.scope).run({
      input: {
        record_id: req.params.id,
        lender_shows: req.validatedBody.lender_shows,
        actor: req.auth_context?.actor_id ?? "admin",
      },
    })
    res.json({ record: toMoneyRecord(result as never) })
  }
)
