import { sign, signatureMessage, signFields, verifySignature } from "../signing"

// protocol.md §3: the lender's published test vector.
const vector = {
  x_account_id: "Z9s7Yt0Txsqbbx",
  x_amount: "89.99",
  x_currency: "USD",
  x_gateway_reference: "123",
  x_reference: "19783",
  x_result: "completed",
  x_test: "true",
  x_timestamp: "2014-03-24T12:15:41Z",
}
const key = "iU44RWxeik"
const expected = "49d3166063b4d881b50af0b4648c1244bfa9890a53ed6bce6d2386404b610777"

describe("x_ signing", () => {
  it("reproduces the lender's test vector", () => {
    expect(signatureMessage(vector)).toBe(
      "x_account_idZ9s7Yt0Txsqbbxx_amount89.99x_currencyUSDx_gateway_reference123x_reference19783x_resultcompletedx_testtruex_timestamp2014-03-24T12:15:41Z"
    )
    expect(sign(vector, key)).toBe(expected)
  })

  it("ignores field order, non-x_ fields, empty values and the signature itself", () => {
    const { x_timestamp, ...rest } = vector
    const shuffled = { x_timestamp, foo: "bar", x_message: "", ...rest, x_signature: "whatever" }
    expect(sign(shuffled, key)).toBe(expected)
  })

  it("signs the exact value: case and decimals matter", () => {
    expect(sign({ ...vector, x_result: "Completed" }, key)).not.toBe(expected)
    expect(sign({ ...vector, x_amount: "89.990" }, key)).not.toBe(expected)
  })

  it("verifies in any hex case and rejects tampering, other keys and malformed signatures", () => {
    expect(verifySignature({ ...vector, x_signature: expected.toUpperCase() }, key)).toBe(true)
    expect(verifySignature({ ...vector, x_amount: "1.00", x_signature: expected }, key)).toBe(false)
    expect(verifySignature({ ...vector, x_signature: expected }, "another-token")).toBe(false)
    expect(verifySignature({ ...vector, x_signature: "abc" }, key)).toBe(false)
    expect(verifySignature(vector, key)).toBe(false)
  })

  it("leaves empty values out of the form it signs", () => {
    const form = signFields({ x_amount: "10.00", x_customer_phone: "", x_customer_email: undefined }, key)
    expect(Object.keys(form).sort()).toEqual(["x_amount", "x_signature"])
    expect(verifySignature(form, key)).toBe(true)
  })
})
