import { startSimulator, FAULT_ACTS, FAULT_KINDS, SIMULATOR_TEST_ACCOUNT, type Simulator } from "../../simulator"
import { approveApplication } from "../../../test-support/simulator-application"
import { LenderClient } from "../client"
import { LenderError } from "../errors"
import { EXPECTED_OUTCOME } from "../../../test-support/fault-matrix"

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
})
