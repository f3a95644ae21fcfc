import { SIMULATOR_TEST_ACCOUNT, startSimulator } from "../src/lenders/paybright/simulator"
import { approveApplication } from "../test-support/simulator-application"
import { LenderClient } from "../src/lenders/paybright/client"
import { signFields } from "../src/lenders/paybright/signing"
import { verifyApplicationResult } from "../src/lenders/paybright/result"
import { captureAmountFor } from "../src/lib/fulfillment-value"
import { measure, measureConcurrent, type Measurement } from "./measure"

/**
 * The micro-benchmarks: what the plugin adds to a checkout and a shipment, measured. The CPU work on
 * every payment (signing the application form, verifying the lender's result, valuing a parcel in
 * decimal) and the lender round trip through the plugin's client over keep-alive HTTP, against
 * the simulator on this machine (so it measures the client and the network stack, not PayBright).
 */
export async function microBenchmarks(): Promise<Measurement[]> {
  const results: Measurement[] = []
  const { apiKey, apiToken } = SIMULATOR_TEST_ACCOUNT

  const application = {
    x_account_id: apiKey,
    x_amount: "1044.12",
    x_currency: "CAD",
    x_reference: "payses_01JBENCHMARK",
    x_shop_country: "CA",
    x_shop_name: "Bench shop",
    x_test: "true",
    x_url_callback: "https://api.shop.ca/paybright/callback",
    x_url_complete: "https://api.shop.ca/paybright/return",
    x_url_cancel: "https://api.shop.ca/paybright/cancel?session_id=payses_01JBENCHMARK",
    x_customer_first_name: "Jeanne",
    x_customer_last_name: "Tremblay",
    x_customer_email: "jeanne@example.com",
    x_customer_billing_city: "Montréal",
  }
  results.push(await measure("sign an application form (14 fields)", 20_000, () => signFields(application, apiToken)))

  // What the lender sends back: the request's identifying fields, never its shop, URL or customer fields.
  const result = signFields(
    {
      x_account_id: application.x_account_id,
      x_amount: application.x_amount,
      x_currency: application.x_currency,
      x_reference: application.x_reference,
      x_test: application.x_test,
      x_gateway_reference: "1001",
      x_transaction_type: "authorization",
      x_timestamp: new Date().toISOString(),
      x_result: "Completed",
      x_message: "Approved",
    },
    apiToken
  )
  const expected = {
    apiKey,
    apiToken,
    sessionId: application.x_reference,
    amount: "1044.12",
    currency: "CAD",
    test: true,
  }
  results.push(
    await measure("verify the lender's result", 20_000, () => {
      if (!verifyApplicationResult(result, expected).verified) throw new Error("the benchmark's result does not verify")
    })
  )

  const lines = Array.from({ length: 50 }, (_, index) => ({
    id: `item_${index}`,
    quantity: 3,
    total: `${(index + 1) * 17}.${String(index % 100).padStart(2, "0")}`,
  }))
  const order = {
    items: lines,
    shippingTotal: "25.00",
    fulfilledQuantities: Object.fromEntries(lines.map((line, index) => [line.id, index % 2 ? 3 : 1])),
  }
  const parcel = { items: lines.map((line) => ({ line_item_id: line.id, quantity: 1 })) }
  results.push(
    await measure("value a parcel of a 50-line order", 5_000, () =>
      captureAmountFor(order, parcel, { authorized: "50000.00", captured: "125.50" })
    )
  )

  const simulator = await startSimulator({ decision: "approve", callback: { enabled: false } })
  try {
    const contract = await approveApplication(simulator, "1044.12")
    const client = new LenderClient({
      apiUrl: simulator.apiUrl,
      checkoutUrl: simulator.checkoutUrl,
      apiKey,
      apiToken,
      timeoutMs: 5000,
    })
    results.push(
      await measure("virtual card retrieval, one at a time", 1_000, () =>
        client.getVirtualCard(contract.gateway_reference)
      )
    )
    results.push(
      await measureConcurrent("virtual card retrieval, 16 at once", 2_000, 16, () =>
        client.getVirtualCard(contract.gateway_reference)
      )
    )
    // Captures of one cent each, well within the contract's 1044.12, under the application's reference.
    const capture = () =>
      client.capture(contract.gateway_reference, {
        x_account_id: apiKey,
        x_amount: "0.01",
        x_reference: contract.reference,
        x_currency: "CAD",
        x_test: true,
      })
    results.push(await measure("in-store capture, one at a time", 500, capture))
  } finally {
    await simulator.close()
  }

  return results
}
