import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { toMoneyRecord } from "../../../../../../money/money-record-view"
import { resolveMoneyRecordWorkflow } from "../../../../../../workflows/money-records/workflows/resolve-money-record"
import type { ResolveRecordBody } from "../../../validators"

/** POST /admin/paybright/records/:id/resolve `{ lender_shows: "done" | "nothing" }`: resolves an in-doubt record. */
export const POST = async (req: AuthenticatedMedusaRequest<ResolveRecordBody>, res: MedusaResponse) => {
  const { result } = await resolveMoneyRecordWorkflow(req.scope).run({
    input: {
      record_id: req.params.id,
      lender_shows: req.validatedBody.lender_shows,
      actor: req.auth_context?.actor_id ?? "admin",
    },
  })
  res.json({ record: toMoneyRecord(result as never) })
}
