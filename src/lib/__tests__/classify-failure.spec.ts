import { CardProcessorError } from "../card-processor-types"
import { lenderFact, LenderNetworkError } from "../../lenders/errors"
import { errorFromResponse } from "../../lenders/paybright/errors"
import { english, type Said } from "../texts/said"
import { merchantMessage } from "../merchant-messages"
import { classifyFailure, redactDigitRuns } from "../classify-failure"
import { conclusionOf, type AttemptInput } from "../money-attempt"

describe("classifying a failed money movement", () => {
  it("redacts every run of 12 to 19 digits and leaves shorter numbers alone", () => {
    expect(redactDigitRuns("card 4111111111111111 declined, order 12345, long 12345678901234567890")).toBe(
      "card [redacted] declined, order 12345, long [redacted]0"
    )
    expect(redactDigitRuns("an 11-digit 12345678901 stays")).toBe("an 11-digit 12345678901 stays")
  })

  it("keeps the outcome the error carries, and takes anything unknown from a store's processor as in doubt, redacted", () => {
    expect(
      classifyFailure(new LenderNetworkError({ code: "timeout", operation: "capture", message: "x", maybeDone: true }))
        .outcome
    ).toBe("in_doubt")
    expect(classifyFailure(new CardProcessorError("declined", "no", "stripe")).outcome).toBe("refused")
    const unknown = classifyFailure(new Error("gateway said card 4242424242424242 failed"))
    expect(unknown).toMatchObject({ outcome: "in_doubt" })
    expect(unknown.fact).not.toContain("4242424242424242")
  })

  it("keeps the lender's HTTP status beside its evidence, out of the sentence the merchant reads", () => {
    const refused = classifyFailure(errorFromResponse("capture", 400, { message: "Contract on hold" }))
    expect(refused).toEqual({
      outcome: "refused",
      fact: lenderFact("rejected", "capture", "Contract on hold"),
      evidence: { http_status: "400" },
    })
    const failed = classifyFailure(errorFromResponse("refund", 503, ""))
    expect(failed).toMatchObject({ outcome: "in_doubt", evidence: { http_status: "503" } })
    expect(english(failed.fact as Said)).not.toMatch(/503/)
  })

  it("logs the lender's HTTP status with the attempt, and leaves it out of the record's sentence", () => {
    const input = {
      kind: "capture",
      paymentId: "pay_1",
      order: { id: "order_1", display_id: 7 },
      medusaId: "capt_1",
      amount: "10.00",
      medusaAmount: "10.00",
      currency: "cad",
      contract: "51325",
      via: "PayBright",
    } as AttemptInput
    const { record, log } = conclusionOf(input, classifyFailure(errorFromResponse("capture", 503, "")))
    expect(log).toEqual({
      level: "error",
      line: expect.stringMatching(/^PayBright: capture IN DOUBT \(order #7, contract 51325, 10\.00 CAD, HTTP 503\): /),
    })
    expect(record).toMatchObject({ state: "in_doubt", evidence: { http_status: "503" } })
    expect(english(record.message)).not.toMatch(/503/)
  })

  it("writes one sentence per outcome that never contradicts itself", () => {
    const facts = {
      movement: "capture" as const,
      amount: "10.00",
      currency: "cad",
      contract: "51325",
      via: "PayBright",
      fact: "PayBright did not answer in time for the capture",
    }
    const doubt = english(merchantMessage({ ...facts, outcome: "in_doubt" }))
    expect(doubt).toMatch(/may have been made .* resolve this record as captured or not/)
    expect(doubt).not.toMatch(/nothing (moved|was changed)/i)
    expect(english(merchantMessage({ ...facts, outcome: "refused" }))).toMatch(/was not made .*; nothing moved/)
    expect(english(merchantMessage({ ...facts, outcome: "done" }))).toBe(
      "Captured $10.00 CAD on PayBright contract 51325."
    )
  })
})
