import { StripeCardProcessor } from "../../src/lib/stripe"
import { CardProcessorError, type CardDetails } from "../../src/lib/card-processor-types"
import { cardDetails } from "../../src/lib/virtual-card"
import { LenderClient } from "../../src/lenders/paybright/client"
import { startSimulator, SIMULATOR_TEST_ACCOUNT, type Simulator } from "../../src/lenders/paybright/simulator"
import { startFakeStripe, type FakeStripe } from "../fake-stripe"
import { approveApplication } from "../simulator-application"

/** The fake Stripe wired to the simulator as the card network is wired to PayBright. */
describe("fake Stripe: the lender's card network", () => {
  let simulator: Simulator
  let stripe: FakeStripe
  let processor: StripeCardProcessor
  let lender: LenderClient

  beforeAll(async () => {
    simulator = await startSimulator({ decision: "approve", callback: { enabled: false } })
    stripe = await startFakeStripe({ onCardTransaction: (event) => simulator.cardTransaction(event) })
    processor = new StripeCardProcessor({
      secretKey: stripe.secretKey,
      host: stripe.host,
      port: stripe.port,
      protocol: "http",
    })
    lender = new LenderClient({
      apiUrl: simulator.apiUrl,
      checkoutUrl: simulator.checkoutUrl,
      ...SIMULATOR_TEST_ACCOUNT,
    })
  })
  afterAll(async () => {
    await stripe.close()
    await simulator.close()
  })

  const cardOf = async (gatewayReference: string) => cardDetails(await lender.getVirtualCard(gatewayReference))
  const charge = (card: CardDetails, amount: string, idempotencyKey: string) =>
    processor.charge({ card, amount, currency: "CAD", idempotencyKey, description: "test", metadata: {} })

  it("charges a live contract's card, and declines the card of a voided contract, charging nothing", async () => {
    const live = await approveApplication(simulator, "30.00")
    await charge(await cardOf(live.gateway_reference), "30.00", "live-1")
    expect(simulator.contract(live.gateway_reference)).toMatchObject({ status: "FINAL", captured: "30.00" })

    const contract = await approveApplication(simulator, "40.00")
    const card = await cardOf(contract.gateway_reference)
    await lender.voidAuthorization(contract.gateway_reference, {
      reference: contract.reference,
      amount: "40.00",
      currency: "CAD",
      test: true,
    })
    const declined = await charge(card, "40.00", "voided-1").catch((error) => error)
    expect(declined).toBeInstanceOf(CardProcessorError)
    expect(declined.code).toBe("declined")
    expect(stripe.charges().filter((entry) => entry.last4 === card.pan.slice(-4))).toHaveLength(0)
    expect(simulator.contract(contract.gateway_reference)).toMatchObject({ status: "VOIDED", captured: "0.00" })
  })
})
