import { payBrightRedirectOf, PayBrightSessionError } from "../session"
import { isPayBright } from "../provider"
import { payBrightWidgetScriptUrl } from "../widget"

const form = {
  url: "https://sandbox.paybright.com/CheckOut/ApplicationForm.aspx",
  method: "POST",
  fields: { x_account_id: "key", x_amount: "514.99", x_reference: "payses_1", x_signature: "abc" },
}

describe("PayBright payment sessions in the storefront", () => {
  it("recognises PayBright whatever its registration id", () => {
    expect(isPayBright("pp_paybright_paybright")).toBe(true)
    expect(isPayBright("pp_paybright_outlet")).toBe(true)
    expect(isPayBright("pp_stripe_stripe")).toBe(false)
    expect(isPayBright(undefined)).toBe(false)
  })

  it("reads the signed form of a PayBright session", () => {
    expect(payBrightRedirectOf({ provider_id: "pp_paybright_paybright", data: { redirect: form } })).toEqual(form)
  })

  it("refuses a session of another provider, or one without a complete signed form", () => {
    const code = (session: Parameters<typeof payBrightRedirectOf>[0]) => {
      try {
        payBrightRedirectOf(session)
        return "accepted"
      } catch (error) {
        return error instanceof PayBrightSessionError ? error.code : String(error)
      }
    }
    expect(code({ provider_id: "pp_stripe_stripe", data: { redirect: form } })).toBe("not_paybright")
    expect(code(undefined)).toBe("not_paybright")
    expect(code({ provider_id: "pp_paybright_paybright", data: {} })).toBe("no_form")
    expect(
      code({ provider_id: "pp_paybright_paybright", data: { redirect: { ...form, url: "javascript:alert(1)" } } })
    ).toBe("no_form")
    const { x_signature: _, ...unsigned } = form.fields
    expect(code({ provider_id: "pp_paybright_paybright", data: { redirect: { ...form, fields: unsigned } } })).toBe(
      "no_form"
    )
  })

  it("writes the widget script's address with the public key and the amount financed", () => {
    expect(
      payBrightWidgetScriptUrl(
        { public_key: "pk_pub", script_url: "https://sandbox.paybright.com/dist/sdk.js" },
        1234.5
      )
    ).toBe("https://sandbox.paybright.com/dist/sdk.js?public_key=pk_pub&financedamount=%241234.50")
  })
})
