import { forLog } from "../../../lib/texts/log-text"
import { sign, signFields } from "../signing"
import { suitsCaptureMode } from "../../lender"
import { authenticateLenderResult, readLenderResult, requestOnlyFieldsOf, verifyApplicationResult } from "../result"
import { readReturnToken, returnToken } from "../../../lib/return-token"
import { seal, unseal } from "../../../lib/sealed"

const token = "unit-test-token"

describe("sealed facts", () => {
  it("open only with the same key and binding", () => {
    const sealed = seal(token, "return", "payses_1", { contract: "51325" })
    expect(unseal(token, "return", "payses_1", sealed)).toEqual({ contract: "51325" })
    expect(unseal("other-token", "return", "payses_1", sealed)).toBeUndefined()
    expect(unseal(token, "return", "payses_2", sealed)).toBeUndefined()
    const [iv, body, tag] = sealed.split(".")
    const flipped = Buffer.from(body, "base64url")
    flipped[0] ^= 1
    expect(unseal(token, "return", "payses_1", [iv, flipped.toString("base64url"), tag].join("."))).toBeUndefined()
    // A truncated tag would be easier to forge: refused.
    expect(unseal(token, "return", "payses_1", [iv, body, tag.slice(0, 8)].join("."))).toBeUndefined()
    expect(unseal(token, "return", "payses_1", { contract: "51325" })).toBeUndefined()
  })

  it("say which checkout a return belongs to, and whether the token is still fresh", () => {
    const context = readReturnToken(token, returnToken(token, "payses_1", "pay_col_1"))
    expect(context).toMatchObject({ session_id: "payses_1", payment_collection_id: "pay_col_1", fresh: true })
    expect(readReturnToken("other-token", returnToken(token, "payses_1", "pay_col_1"))).toBeUndefined()
  })
})

describe("result checks", () => {
  const result = {
    x_account_id: "key",
    x_reference: "payses_1",
    x_currency: "CAD",
    x_test: "true",
    x_amount: "100.00",
    x_gateway_reference: "51325",
    x_timestamp: "2026-01-01T00:00:00Z",
    x_result: "Completed",
    x_transaction_type: "authorization",
  }

  it("refuses a signed result carrying request-only fields: it may be a signed request replayed", () => {
    const replayed = { ...result, x_url_callback: "https://attacker.test" }
    expect(requestOnlyFieldsOf(replayed)).toEqual(["x_url_callback"])
    const verdict = verifyApplicationResult(
      { ...replayed, x_signature: sign(replayed, token) },
      { apiKey: "key", apiToken: token, test: true }
    )
    expect(verdict).toMatchObject({ verified: false, reason: expect.stringContaining("request fields") })
    expect(requestOnlyFieldsOf({ x_Customer_email: "a", x_shop_name: "b", x_amount: "1" })).toEqual([
      "x_Customer_email",
      "x_shop_name",
    ])
  })

  it("accepts only authorization results in in-store mode", () => {
    const signer = { options: { apiKey: "key", apiToken: token } }
    const read = (type?: string) => {
      const reading = readLenderResult(signFields({ ...result, x_transaction_type: type }, token), [signer])
      if (reading.kind !== "result") throw new Error(`not a result: ${reading.kind}`)
      return reading.result
    }
    expect(suitsCaptureMode(read("authorization"), "in_store")).toBe(true)
    expect(suitsCaptureMode(read("Authorization"), "in_store")).toBe(true)
    expect(suitsCaptureMode(read(), "in_store")).toBe(false)
    expect(suitsCaptureMode(read("purchase"), "in_store")).toBe(false)
    expect(suitsCaptureMode(read(), "virtual_card")).toBe(true)
    expect(suitsCaptureMode(read("purchase"), "virtual_card")).toBe(false)
    expect(read("authorization")).toMatchObject({
      contract: "51325",
      reference: "payses_1",
      test: true,
      outcome: "completed",
    })
  })

  it("logs request values without control characters, cut short", () => {
    expect(forLog("payses_1\nERROR forged line\u001b[31m")).toBe("payses_1 ERROR forged line [31m")
    expect(forLog("a".repeat(200))).toHaveLength(81)
  })
})

describe("the authenticator of lender results", () => {
  const first = { id: "first", options: { apiKey: "key", apiToken: token } }
  const second = { id: "second", options: { apiKey: "key-2", apiToken: "second-token" } }
  const fields = { x_account_id: "key", x_reference: "payses_1", x_result: "Completed", x_amount: "100.00" }

  it("refuses with 400 what is not a signed result: no signature, no reference, a field not a string", () => {
    for (const input of [
      undefined,
      "x_signature=abc",
      [fields],
      fields,
      signFields({ ...fields, x_reference: "" }, token),
      { ...signFields(fields, token), x_amount: ["100.00", "1.00"] },
    ]) {
      expect(authenticateLenderResult(input, [first])).toEqual({
        authentic: false,
        status: 400,
        reason: "no signed PayBright fields",
      })
    }
  })

  it("refuses with 401 a signature no candidate's token makes", () => {
    const verdict = { authentic: false, status: 401, reason: "the signature does not match the API token" }
    expect(authenticateLenderResult({ ...signFields(fields, token), x_amount: "1.00" }, [first, second])).toEqual(
      verdict
    )
    expect(authenticateLenderResult(signFields(fields, "stranger"), [first, second])).toEqual(verdict)
    expect(authenticateLenderResult(signFields(fields, token), [])).toEqual(verdict)
  })

  it("answers the verified x_ fields and the candidate that signed them, ignoring other fields", () => {
    const input = { ...signFields(fields, token), ctx: "token", other: 1 }
    expect(authenticateLenderResult(input, [second, first])).toEqual({
      authentic: true,
      fields: signFields(fields, token),
      signer: first,
      ownAccount: true,
    })
  })

  it("prefers the signer of the fields' own account, and says when the signer is another account's", () => {
    const sameToken = { id: "same-token", options: { apiKey: "key-3", apiToken: token } }
    expect(authenticateLenderResult(signFields(fields, token), [sameToken, first])).toMatchObject({
      signer: first,
      ownAccount: true,
    })
    expect(authenticateLenderResult(signFields(fields, token), [sameToken])).toMatchObject({
      authentic: true,
      signer: sameToken,
      ownAccount: false,
    })
  })
})
