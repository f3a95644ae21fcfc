import fc from "fast-check"
import type { ApplicantDetails } from "../../lender"
import { buildApplicationRedirect } from "../application"
import { signatureMessage, verifySignature } from "../signing"

const account = {
  apiKey: "unit-key",
  apiToken: "unit-test-token",
  checkoutUrl: "https://sandbox.paybright.test",
  shopName: "Unit shop",
  shopCountry: "CA",
  test: true,
}
const back = "https://api.shop.test/paybright"

const address = {
  first_name: "Alex",
  last_name: "Smith",
  address_1: "1 Front St W",
  city: "Toronto",
  province: "on",
  postal_code: "M5J 2X5",
  country_code: "ca",
  phone: "416-555-0100",
}

function application(applicant: ApplicantDetails) {
  return buildApplicationRedirect(account, {
    reference: "payses_1",
    amount: "100.00",
    currency: "CAD",
    applicant,
    urls: {
      callback: `${back}/callback?ctx=sealed`,
      complete: `${back}/return?ctx=sealed`,
      cancel: `${back}/cancel?ctx=sealed`,
    },
  }).fields
}

describe("the application's pre-fill", () => {
  it("leaves out a value containing x_, keeps the rest, and still signs what it sends", () => {
    const fields = application({
      email: "alex_smith@example.com",
      first_name: "Anna x_resultcompleted",
      billing_address: address,
      shipping_address: { ...address, address_2: "Unit X_12" },
    })

    expect(fields.x_customer_email).toBeUndefined()
    expect(fields.x_customer_first_name).toBeUndefined()
    expect(fields.x_customer_shipping_address2).toBeUndefined()
    expect(fields).toMatchObject({
      x_customer_last_name: "Smith",
      x_customer_billing_city: "Toronto",
      x_customer_billing_state: "ON",
      x_customer_billing_zip: "M5J 2X5",
      x_customer_shipping_address1: "1 Front St W",
      x_customer_phone: "4165550100",
    })
    expect(Object.values(fields).some((value) => /x_/i.test(value))).toBe(false)
    expect(verifySignature(fields, "unit-test-token")).toBe(true)
  })

  it("sends an ordinary shopper's details whole", () => {
    const fields = application({ email: "jeanne@example.com", billing_address: address })
    expect(fields.x_customer_email).toBe("jeanne@example.com")
    expect(fields.x_customer_first_name).toBe("Alex")
  })

  // The signed message runs names and values together: it can be read back as one set of fields
  // only if every "x_" in it starts a field's name. Whatever a shopper types, that stays so.
  it("keeps the signed message unambiguous for any applicant details", () => {
    const value = fc.option(
      fc.oneof(
        fc.string({ maxLength: 40 }),
        fc.constantFrom("alex_smith@example.com", "X_", "ax_result", "x", "_", "xx__")
      ),
      { nil: undefined }
    )
    const addressOf = fc.record(
      { first_name: value, last_name: value, address_1: value, city: value, postal_code: value, phone: value },
      { requiredKeys: [] }
    )
    fc.assert(
      fc.property(
        fc.record({
          email: value,
          first_name: value,
          last_name: value,
          billing_address: addressOf,
          shipping_address: addressOf,
        }),
        (applicant) => {
          const fields = application(applicant)
          const signedNames = Object.keys(fields).filter((name) => name !== "x_signature")
          const starts = signatureMessage(fields).match(/x_/gi) ?? []
          return starts.length === signedNames.length && verifySignature(fields, "unit-test-token")
        }
      ),
      { numRuns: 500 }
    )
  })
})
