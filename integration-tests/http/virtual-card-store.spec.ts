import { startFakeStripe, type FakeStripe } from "../../test-support/fake-stripe"
import { onOneApp } from "../helpers/one-app"
import { orderChanges } from "./order-changes.suite"
import { virtualCard } from "./virtual-card.suite"

jest.setTimeout(300_000)

/** The fake Stripe, started once the simulator runs, before the app boots. */
const network = {} as { stripe: FakeStripe }
afterAll(async () => {
  await network.stripe?.close()
})

/**
 * The suites of a store that takes its money through the contract's virtual card, charged with
 * Stripe, on one Medusa app. The Stripe is a fake that reports each card transaction to the
 * lender, as the card network does; the app waits 1.5 s for its answers, so that a test's slow
 * Stripe times out quickly. Beside the default registration the app has one paid through the card
 * by a person at a terminal, and the in-store ones that capture at fulfillment or never by
 * themselves.
 */
onOneApp(
  { decision: "approve", callback: { enabled: false } },
  [virtualCard(network), orderChanges("virtual_card", network)],
  async (simulator) => {
    network.stripe = await startFakeStripe({ onCardTransaction: (event) => simulator.cardTransaction(event) })
    return {
      PAYBRIGHT_CAPTURE_MODE: "virtual_card",
      PAYBRIGHT_CARD_PROCESSOR: "stripe",
      PAYBRIGHT_STRIPE_URL: network.stripe.url,
      PAYBRIGHT_STRIPE_KEY: network.stripe.secretKey,
      PAYBRIGHT_STRIPE_TIMEOUT_MS: "1500",
      PAYBRIGHT_MANUAL_PROVIDER: "1",
      PAYBRIGHT_CAPTURE_ON_PROVIDERS: "1",
    }
  }
)
