import fs from "node:fs"
import { capturePaymentWorkflow } from "@medusajs/core-flows"
import type { ExecArgs } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { sweepUnplacedApprovals } from "../../src/sweeps/sweep-unplaced-approvals"

/**
 * Run with `medusa exec` as another server or worker process of the store: tries each kind of
 * PayBright work once (open a session, capture a payment, run the unplaced-approvals job) and
 * writes what each answered, with this process's id, to PAYBRIGHT_WORK_OUT.
 */
export default async function paybrightWork({ container }: ExecArgs) {
  const attempt = async (work: () => Promise<unknown>) => {
    try {
      await work()
      return { ok: true as const }
    } catch (error) {
      // A workflow throws its step's error as a plain object: its message is what counts.
      const message = (error as { message?: unknown })?.message
      return { ok: false as const, message: typeof message === "string" ? message : String(error) }
    }
  }
  const payments = container.resolve(Modules.PAYMENT)
  const session = await attempt(() =>
    payments.createPaymentSession(process.env.PAYBRIGHT_WORK_COLLECTION!, {
      provider_id: "pp_paybright_paybright",
      amount: Number(process.env.PAYBRIGHT_WORK_AMOUNT),
      currency_code: "cad",
      data: {},
    })
  )
  const capture = await attempt(() =>
    capturePaymentWorkflow(container).run({
      input: { payment_id: process.env.PAYBRIGHT_WORK_PAYMENT!, amount: 10 },
    })
  )
  const job = await attempt(() => sweepUnplacedApprovals(container))
  fs.writeFileSync(process.env.PAYBRIGHT_WORK_OUT!, JSON.stringify({ pid: process.pid, session, capture, job }))
}
