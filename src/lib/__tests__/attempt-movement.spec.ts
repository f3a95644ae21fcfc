import { LenderNetworkError } from "../../lenders/errors"
import { errorFromResponse } from "../../lenders/paybright/errors"
import { english } from "../texts/said"
import { MerchantError } from "../merchant-error"
import type { MoneyRecordRow, MoneyState } from "../../modules/paybright/money-record-types"
import { attemptMovement, concludeFoundEnd, type Funnel, type MovementRecords } from "../attempt-movement"
import type { AttemptInput } from "../money-attempt"

/** A record as the module service answers it. */
function row(state: MoneyState, fields: Partial<MoneyRecordRow> = {}): MoneyRecordRow {
  return {
    id: "pbrec_1",
    kind: "capture",
    trigger: "admin",
    idempotency_key: null,
    payment_id: "pay_1",
    order_id: "order_1",
    fulfillment_id: null,
    contract: "51325",
    amount: "10.00",
    medusa_amount: "10.00",
    currency_code: "cad",
    state,
    reference: null,
    medusa_id: "capt_1",
    message: null,
    said: null,
    lender_evidence: null,
    resolved_by: null,
    resolved_at: null,
    retry_of: null,
    created_at: new Date(0),
    ...fields,
  }
}

/**
 * The module service's money moves, kept in memory: what the opening answers is given, and every
 * write is kept in order, so a test reads what the funnel wrote and in which order.
 */
function recordsAnswering(opening: { record: MoneyRecordRow } | { blocked: MoneyRecordRow }) {
  const writes: { move: string; id: string; state: string; message: string; evidence?: unknown }[] = []
  const records: MovementRecords = {
    openMovementRecord: async () => {
      writes.push({ move: "open", id: "record" in opening ? opening.record.id : "", state: "pending", message: "" })
      return opening
    },
    concludeMoneyRecord: async (id, outcome) => {
      writes.push({
        move: "conclude",
        id,
        state: outcome.state,
        message: english(outcome.message as never),
        evidence: outcome.evidence,
      })
      return row(outcome.state, { id })
    },
    putMoneyRecordInDoubt: async (id, doubt) => {
      writes.push({ move: "doubt", id, state: "in_doubt", message: english(doubt.message as never) })
      return row("in_doubt", { id })
    },
    refuseUnstartedRecord: async (id, refusal) => {
      writes.push({ move: "refuse_unstarted", id, state: "refused", message: english(refusal.message as never) })
      return row("refused", { id })
    },
  }
  const lines: { level: string; line: string }[] = []
  const logger = {
    info: (line: string) => void lines.push({ level: "info", line }),
    warn: (line: string) => void lines.push({ level: "warn", line }),
    error: (line: string) => void lines.push({ level: "error", line }),
  }
  return { funnel: { records, logger } as unknown as Funnel, writes, lines }
}

const capture: AttemptInput = {
  kind: "capture",
  paymentId: "pay_1",
  order: { id: "order_1", display_id: 7 },
  medusaId: "capt_1",
  amount: "10.00",
  medusaAmount: "10.00",
  currency: "cad",
  contract: "51325",
  reference: "ref_1",
  via: "PayBright",
}

describe("the money funnel", () => {
  it("refuses before anything is sent while another movement of the payment is in doubt", async () => {
    const { funnel, writes } = recordsAnswering({ blocked: row("in_doubt", { id: "pbrec_doubt", kind: "refund" }) })
    const call = jest.fn()
    await expect(attemptMovement(funnel, capture, call)).rejects.toBeInstanceOf(MerchantError)
    expect(call).not.toHaveBeenCalled()
    expect(writes.map((write) => write.move)).toEqual(["open"])
  })

  it("makes no call for a record a person already resolved as made, and leaves it as it is", async () => {
    const { funnel, writes } = recordsAnswering({ record: row("done", { message: "Captured." }) })
    const call = jest.fn()
    const outcome = await attemptMovement(funnel, capture, call)
    expect(outcome).toMatchObject({ outcome: "done", recordId: "pbrec_1" })
    expect(outcome.made).toBeUndefined()
    expect(english(outcome.message)).toBe("Captured.")
    expect(call).not.toHaveBeenCalled()
    expect(writes.map((write) => write.move)).toEqual(["open"])
  })

  it("refuses a call that cannot be made with why, and sends nothing", async () => {
    const { funnel, writes, lines } = recordsAnswering({ record: row("pending") })
    const outcome = await attemptMovement(funnel, capture, { cannot: "the store no longer has this account" })
    expect(outcome.outcome).toBe("refused")
    expect(writes[1]).toMatchObject({ move: "conclude", state: "refused" })
    expect(writes[1].message).toMatch(/the store no longer has this account/)
    expect(lines).toEqual([{ level: "warn", line: expect.stringMatching(/^PayBright: capture refused \(order #7/) }])
  })

  it("concludes done without a call when nothing is left to move at the lender", async () => {
    const { funnel, writes } = recordsAnswering({ record: row("pending") })
    const call = jest.fn()
    const outcome = await attemptMovement(funnel, { ...capture, amount: "0.00" }, call)
    expect(outcome.outcome).toBe("done")
    expect(call).not.toHaveBeenCalled()
    expect(writes[1]).toMatchObject({ state: "done", evidence: { x_amount: "0.00" } })
  })

  it("concludes done with the lender's evidence and answers what the call made", async () => {
    const { funnel, writes, lines } = recordsAnswering({ record: row("pending") })
    const outcome = await attemptMovement(funnel, capture, async () => ({
      evidence: { x_result: "completed" },
      data: 1,
    }))
    expect(outcome).toMatchObject({ outcome: "done", made: { data: 1 } })
    expect(writes[1]).toMatchObject({ state: "done", evidence: { x_result: "completed" } })
    expect(writes[1].message).toBe("Captured $10.00 CAD on PayBright contract 51325.")
    expect(lines[0].level).toBe("info")
  })

  it("classifies a failed call: refused when nothing moved, in doubt when the lender may have acted", async () => {
    const refused = recordsAnswering({ record: row("pending") })
    const declined = await attemptMovement(refused.funnel, capture, async () => {
      throw errorFromResponse("capture", 400, { message: "Contract on hold" })
    })
    expect(declined.outcome).toBe("refused")
    expect(refused.writes[1]).toMatchObject({ state: "refused", evidence: { http_status: "400" } })

    const doubted = recordsAnswering({ record: row("pending") })
    const timedOut = await attemptMovement(doubted.funnel, capture, async () => {
      throw new LenderNetworkError({ code: "timeout", operation: "capture", message: "x", maybeDone: true })
    })
    expect(timedOut.outcome).toBe("in_doubt")
    expect(doubted.writes[1].state).toBe("in_doubt")
    expect(doubted.lines).toEqual([{ level: "error", line: expect.stringMatching(/^PayBright: capture IN DOUBT/) }])
  })

  it("concludes a movement nobody saw end by what was found: not started, made, or in doubt with why", async () => {
    const notStarted = recordsAnswering({ record: row("pending") })
    await concludeFoundEnd(notStarted.funnel, row("pending", { medusa_id: null }), {
      outcome: "not_started",
      fact: "Medusa refused the capture",
    })
    expect(notStarted.writes).toEqual([expect.objectContaining({ move: "refuse_unstarted", state: "refused" })])

    const made = recordsAnswering({ record: row("pending") })
    await concludeFoundEnd(made.funnel, row("pending"), { outcome: "done", via: "PayBright" })
    expect(made.writes).toEqual([
      expect.objectContaining({
        move: "conclude",
        state: "done",
        message: "Captured $10.00 CAD on PayBright contract 51325.",
      }),
    ])

    const lost = recordsAnswering({ record: row("pending") })
    await concludeFoundEnd(lost.funnel, row("pending"), {
      outcome: "in_doubt",
      via: "PayBright",
      fact: { code: "call_never_finished" },
      reason: "reconciliation",
    })
    expect(lost.writes).toEqual([expect.objectContaining({ move: "doubt", state: "in_doubt" })])
    expect(lost.lines).toEqual([
      { level: "error", line: expect.stringMatching(/^PayBright: capture IN DOUBT \(record pbrec_1/) },
    ])
  })
})
