import { SIMULATOR_TEST_ACCOUNT, type ContractView, type Simulator } from ".."
import { signFields } from "../../lender/signing"

/** Posts a signed application for `amount` as a browser would and answers the contract it opened. */
export async function approveApplication(simulator: Simulator, amount: string, reference = `ref-${Math.random().toString(36).slice(2)}`): Promise<ContractView> {
  const fields = applicationFields(amount, reference)
  const response = await fetch(`${simulator.checkoutUrl}/CheckOut/ApplicationForm.aspx`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual",
  })
  if (response.status !== 303) {
    throw new Error(`application answered ${response.status}`)
  }
  return simulator.contractByReference(reference)!
}

export function applicationFields(amount: string, reference: string, callback = "http://127.0.0.1:9/callback") {
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
    },
    SIMULATOR_TEST_ACCOUNT.apiToken
  )
}
