import {
  startSimulator,
  FAULT_ACTS,
  FAULT_KINDS,
  SIMULATOR_TEST_ACCOUNT,
  VOID_FAULT_ACTS,
  VOID_FAULT_KINDS,
  type Simulator,
} from "../simulator"
import { approveApplication } from "../../../../test-support/simulator-application"
import { LenderClient } from "../client"
import { LenderError } from "../../errors"
import { EXPECTED_OUTCOME, VOID_EXPECTED_OUTCOME } from "../../../../test-support/fault-matrix"

/** Every fault of the matrix against the real client over HTTP: the outcome, and what the lender's books hold. */
describe("lender client: outcome of every injected fault", () => {
  let simulator: Simulator
  let client: LenderClient

  beforeAll(async () => {
    simulator = await startSimulator({ decision: "approve", callback: { enabled: false } })
    client = new LenderClient({
      apiUrl: simulator.apiUrl,
      checkoutUrl: simulator.checkoutUrl,
      ...SIMULATOR_TEST_ACCOUNT,
      timeoutMs: 500,
      readRetries: 0,
    })
  })
  afterAll(() => simulator.close())

  it.each(FAULT_KINDS.map((kind) => [kind]))("capture and refund with %s", async (kind) => {
    const contract = await approveApplication(simulator, "100.00")
    const capture = () =>
      client.capture(contract.gateway_reference, {
        x_account_id: SIMULATOR_TEST_ACCOUNT.apiKey,
        x_amount: "40.00",
        x_reference: contract.reference,
        x_currency: "CAD",
        x_test: true,
      })
    simulator.injectFault(contract.gateway_reference, { operation: "capture", kind, delayMs: 1500 })
    const captureError = await capture().then(
      () => undefined,
      (error) => error
    )
    expect(captureError).toBeInstanceOf(LenderError)
    expect(captureError.outcome).toBe(EXPECTED_OUTCOME[kind])
    expect(simulator.contract(contract.gateway_reference)!.captured).toBe(FAULT_ACTS[kind] ? "40.00" : "0.00")

    if (!FAULT_ACTS[kind]) await capture()
    simulator.injectFault(contract.gateway_reference, { operation: "refund", kind, delayMs: 1500 })
    const refundError = await client.refund(contract.gateway_reference, "10.00").then(
      () => undefined,
      (error) => error
    )
    expect(refundError).toBeInstanceOf(LenderError)
    expect(refundError.outcome).toBe(EXPECTED_OUTCOME[kind])
    expect(simulator.contract(contract.gateway_reference)!.refunded).toBe(FAULT_ACTS[kind] ? "10.00" : "0.00")
  })

  it.each(VOID_FAULT_KINDS.map((kind) => [kind]))("void with %s", async (kind) => {
    const contract = await approveApplication(simulator, "100.00")
    const voidIt = () =>
      client.voidAuthorization(contract.gateway_reference, {
        reference: contract.reference,
        amount: "100.00",
        currency: "CAD",
        test: true,
      })
    simulator.injectFault(contract.gateway_reference, { operation: "void", kind, delayMs: 1500 })
    const error = await voidIt().then(
      () => undefined,
      (caught) => caught
    )
    expect(error).toBeInstanceOf(LenderError)
    expect(error.outcome).toBe(VOID_EXPECTED_OUTCOME[kind])
    expect(simulator.contract(contract.gateway_reference)!.status).toBe(VOID_FAULT_ACTS[kind] ? "VOIDED" : "PENDING")
    // Once the fault is spent, the lender's answer shows what its books hold.
    if (VOID_FAULT_ACTS[kind]) {
      await expect(voidIt()).rejects.toMatchObject({ code: "not_voided", outcome: "refused" })
    } else {
      expect(await voidIt()).toMatchObject({ x_result: "completed" })
    }
  })
})
