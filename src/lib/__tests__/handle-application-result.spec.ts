import { signFields } from "../../lenders/paybright/signing"
import { parseOptions } from "../options"
import { gateLenderResult, type Registration } from "../../workflows/handle-application-result"
import { returnToken } from "../return-token"

const TOKEN = "unit-test-token"
const inStore: Registration = {
  providerId: "pp_paybright_paybright",
  options: parseOptions({
    apiKey: "key",
    apiToken: TOKEN,
    backendUrl: "https://api.shop.ca",
    storefrontUrl: "https://shop.ca",
  }),
}
const second: Registration = {
  providerId: "pp_paybright_second",
  options: parseOptions({
    apiKey: "key-2",
    apiToken: "second-token",
    backendUrl: "https://api.shop.ca",
    storefrontUrl: "https://shop.ca",
    captureMode: "virtual_card",
    cardProcessor: { type: "manual" },
  }),
}

/** A result as the lender signs it: approved for session payses_1, 402.40 CAD, in test mode. */
function signed(overrides: Record<string, string | undefined> = {}, token = TOKEN) {
  const fields: Record<string, string> = {
    x_account_id: "key",
    x_reference: "payses_1",
    x_currency: "CAD",
    x_test: "true",
    x_amount: "402.40",
    x_gateway_reference: "51325",
    x_timestamp: "2026-11-25T11:59:00Z",
    x_result: "Completed",
    x_transaction_type: "authorization",
  }
  for (const [name, value] of Object.entries(overrides)) {
    if (value === undefined) delete fields[name]
    else fields[name] = value
  }
  return signFields(fields, token)
}

const outcomeOf = (input: unknown) => {
  const verdict = gateLenderResult(input, [inStore, second])
  return verdict.kind === "answered" ? verdict.handled.outcome : "verified"
}

describe("the lender result's gate, before anything is looked up", () => {
  it.each<[string, unknown, object]>([
    ["nothing signed", { hello: "world" }, { kind: "rejected", status: 400, reason: "no signed PayBright result" }],
    ["a result without its reference", signed({ x_reference: undefined }), { kind: "rejected", status: 400 }],
    ["a signature that does not verify", { ...signed(), x_amount: "1.00" }, { kind: "rejected", status: 401 }],
    [
      "a result signed for another account",
      signed({ x_account_id: "someone-else" }),
      { kind: "rejected", status: 401, reason: "the signature does not verify (reference payses_1)" },
    ],
    [
      "incomplete signed fields",
      signed({ x_timestamp: undefined }),
      { kind: "rejected", status: 400, reason: "signed fields are incomplete (x_timestamp)" },
    ],
    [
      "the lender's copy of a void",
      signed({ x_transaction_type: "void", x_result: "completed" }),
      { kind: "acknowledged" },
    ],
  ])("answers %s", (_name, input, expected) => {
    expect(outcomeOf(input)).toMatchObject(expected)
  })

  it.each([
    ["request_fields", { x_url_callback: "https://attacker.example" }],
    ["test_mismatch", { x_test: "false" }],
    ["unknown_result", { x_result: "Maybe" }],
  ])("lets a signed result it cannot use through as unusable (%s)", (reason, overrides) => {
    const verdict = gateLenderResult(signed(overrides), [inStore])
    expect(verdict).toMatchObject({ kind: "verified", input: { unusable: reason } })
  })

  it("hands the workflow the facts of each registration, and no secret", () => {
    const verdict = gateLenderResult(signed({ x_amount: "402.4" }), [inStore, second])
    expect(verdict.kind).toBe("verified")
    if (verdict.kind !== "verified") return
    expect(verdict.options.apiKey).toBe("key")
    expect(verdict.input).toMatchObject({
      result: { contract: "51325", session_id: "payses_1", account_id: "key", amount: "402.4", outcome: "completed" },
      signer: { provider_id: inStore.providerId, capture_mode: "in_store", accepts_transaction_type: true },
      registrations: [
        { provider_id: inStore.providerId, grace_minutes: 10 },
        { provider_id: second.providerId, capture_mode: "virtual_card", channel: { card_processor: "manual" } },
      ],
      unusable: null,
      token: null,
    })
    expect(JSON.stringify(verdict.input)).not.toContain(TOKEN)
    expect(JSON.stringify(verdict.input)).not.toContain("second-token")
  })

  it("decides with the registration whose token signed the result", () => {
    const verdict = gateLenderResult(signed({ x_account_id: "key-2" }, "second-token"), [inStore, second])
    expect(verdict).toMatchObject({ kind: "verified", input: { signer: { provider_id: second.providerId } } })
  })

  it("reads the return token only when the signer's store sealed it", () => {
    const ours = gateLenderResult(signed(), [inStore], returnToken(TOKEN, "payses_1", "paycol_1"))
    expect(ours).toMatchObject({ input: { token: { session_id: "payses_1", payment_collection_id: "paycol_1" } } })
    const theirs = gateLenderResult(signed(), [inStore], returnToken("other-token", "payses_1", "paycol_1"))
    expect(theirs).toMatchObject({ input: { token: null } })
  })
})
