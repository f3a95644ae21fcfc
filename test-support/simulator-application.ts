import { SIMULATOR_TEST_ACCOUNT, type ContractView, type Simulator } from "../src/lenders/paybright/simulator"
import { signFields } from "../src/lenders/paybright/signing"

/**
 * Posts a signed application for `amount` as a browser would and answers the contract it opened.
 * The simulator must be in "approve" mode.
 */
export async function approveApplication(
  simulator: Simulator,
  amount: string,
  reference = `ref-${Math.random().toString(36).slice(2)}`
): Promise<ContractView> {
  const response = await fetch(`${simulator.checkoutUrl}/CheckOut/ApplicationForm.aspx`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(applicationFields(amount, reference)).toString(),
    redirect: "manual",
  })
  const contract = simulator.contractByReference(reference)
  if (response.status !== 303 || !contract) {
    throw new Error(
      `application answered ${response.status} and opened ${contract ? "a" : "no"} contract (decision mode: ${simulator.settings.decision})`
    )
  }
  return contract
}

/** The signed form a store's checkout posts for `amount`; `extra` fields are signed too. */
export function applicationFields(
  amount: string,
  reference: string,
  callback = "http://127.0.0.1:9/callback",
  extra: Record<string, string> = {}
) {
  return signFields(
    {
      x_account_id: SIMULATOR_TEST_ACCOUNT.apiKey,
      x_amount: amount,
      x_currency: "CAD",
      x_reference: reference,
      x_shop_country: "CA",
      x_shop_name: "Test shop",
      x_test: "true",
      x_url_callback: callback,
      x_url_complete: "http://127.0.0.1:9/return?keep=1",
      x_url_cancel: "http://127.0.0.1:9/cancel?session_id=abc",
      ...extra,
    },
    SIMULATOR_TEST_ACCOUNT.apiToken
  )
}
