import { startSimulator, SIMULATOR_TEST_ACCOUNT, type ContractView, type Simulator } from ".."
import { LenderClient } from "../../client"
import { LenderDeclinedError, LenderNotFoundError, LenderRejectedError } from "../../../errors"
import { signFields, verifySignature } from "../../signing"
import { approveApplication } from "../../../../../test-support/simulator-application"
import { basicAuth, callbackReceiver, clientOf, until } from "./helpers"

const OTHER_ACCOUNT = { apiKey: "sim_other_merchant", apiToken: "sim_other_token" }

describe("simulator: order-management void (POST /checkout/api2.aspx)", () => {
  let simulator: Simulator
  let client: LenderClient
  const voidOf = (contract: ContractView, change: { amount?: string; callbackUrl?: string } = {}) =>
    client.voidAuthorization(contract.gateway_reference, {
      reference: contract.reference,
      amount: change.amount ?? contract.authorized,
      currency: contract.currency,
      test: contract.test,
      callbackUrl: change.callbackUrl,
    })
  /** The signed body a store sends, with `change` applied before signing. */
  const signedVoid = (
    contract: ContractView,
    change: Record<string, string> = {},
    token = SIMULATOR_TEST_ACCOUNT.apiToken
  ) =>
    signFields(
      {
        x_account_id: SIMULATOR_TEST_ACCOUNT.apiKey,
        x_amount: contract.authorized,
        x_currency: "CAD",
        x_reference: contract.reference,
        x_gateway_reference: contract.gateway_reference,
        x_transaction_type: "void",
        x_test: "true",
        ...change,
      },
      token
    )
  const post = (body: unknown, path = "/checkout/api2.aspx") =>
    fetch(`${simulator.checkoutUrl}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: typeof body === "string" ? body : JSON.stringify(body),
    })
  const messageOf = async (response: Response) => ((await response.json()) as { message: string }).message

  beforeAll(async () => {
    simulator = await startSimulator({
      decision: "approve",
      callback: { retries: 1, retryIntervalMs: 20 },
      accounts: [SIMULATOR_TEST_ACCOUNT, OTHER_ACCOUNT],
    })
    client = clientOf(simulator)
  })
  afterAll(() => simulator.close())

  it("voids a contract never captured: a signed form answer, the contract VOIDED with the time", async () => {
    const contract = await approveApplication(simulator, "120.00")
    const response = await post(signedVoid(contract, {}), "/CheckOut/Api2.aspx")
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toMatch(/^application\/x-www-form-urlencoded/)
    const answer = Object.fromEntries(new URLSearchParams(await response.text()))
    expect(answer).toEqual({
      x_account_id: SIMULATOR_TEST_ACCOUNT.apiKey,
      x_amount: "120.00",
      x_currency: "CAD",
      x_gateway_reference: contract.gateway_reference,
      x_reference: contract.reference,
      x_result: "completed",
      x_test: "true",
      x_timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      x_transaction_type: "void",
      x_signature: expect.stringMatching(/^[0-9a-f]{64}$/),
    })
    expect(verifySignature(answer, SIMULATOR_TEST_ACCOUNT.apiToken)).toBe(true)
    expect(simulator.contract(contract.gateway_reference)).toMatchObject({
      status: "VOIDED",
      voided_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      captured: "0.00",
    })
    expect(contract.voided_at).toBeNull()
  })

  it("refuses a second void, a partial void, and a void after a capture, each with a signed `failed`", async () => {
    const contract = await approveApplication(simulator, "80.00")
    const partial = voidOf(contract, { amount: "79.99" })
    await expect(partial).rejects.toBeInstanceOf(LenderDeclinedError)
    await expect(partial).rejects.toMatchObject({
      code: "not_voided",
      lenderMessage: expect.stringMatching(/no partial voids/),
    })
    expect(simulator.contract(contract.gateway_reference)).toMatchObject({ status: "PENDING", voided_at: null })

    expect(await voidOf(contract)).toMatchObject({ x_result: "completed", x_amount: "80.00" })
    const again = voidOf(contract)
    await expect(again).rejects.toBeInstanceOf(LenderDeclinedError)
    await expect(again).rejects.toMatchObject({ lenderMessage: expect.stringMatching(/was voided/) })

    const captured = await approveApplication(simulator, "50.00")
    await client.capture(captured.gateway_reference, {
      x_account_id: SIMULATOR_TEST_ACCOUNT.apiKey,
      x_amount: "20.00",
      x_reference: captured.reference,
      x_currency: "CAD",
      x_test: true,
    })
    await expect(voidOf(captured)).rejects.toMatchObject({
      code: "not_voided",
      lenderMessage: expect.stringMatching(/captured contract cannot be voided/),
    })
    expect(simulator.contract(captured.gateway_reference)).toMatchObject({ status: "Complete", captured: "20.00" })
  })

  it("refuses a void of an unknown contract, another merchant's, or one named with another reference", async () => {
    const contract = await approveApplication(simulator, "30.00")
    await expect(voidOf({ ...contract, gateway_reference: "999999" })).rejects.toMatchObject({
      code: "not_voided",
      lenderMessage: "No contract 999999 for this merchant",
    })
    const other = clientOf(simulator, OTHER_ACCOUNT)
    const foreign = other.voidAuthorization(contract.gateway_reference, {
      reference: contract.reference,
      amount: "30.00",
      currency: "CAD",
      test: true,
    })
    await expect(foreign).rejects.toMatchObject({
      code: "not_voided",
      lenderMessage: expect.stringMatching(/No contract/),
    })
    await expect(voidOf({ ...contract, reference: "ref-other" })).rejects.toMatchObject({
      lenderMessage: expect.stringMatching(/x_reference must be/),
    })
    expect(simulator.contract(contract.gateway_reference)!.status).toBe("PENDING")
  })

  it("after a void, refuses capture and refund, hides the cancelled card, and declines the card", async () => {
    const contract = await approveApplication(simulator, "60.00")
    const card = await client.getVirtualCard(contract.gateway_reference)
    await voidOf(contract)

    const capture = client.capture(contract.gateway_reference, {
      x_account_id: SIMULATOR_TEST_ACCOUNT.apiKey,
      x_amount: "60.00",
      x_reference: contract.reference,
      x_currency: "CAD",
      x_test: true,
    })
    await expect(capture).rejects.toBeInstanceOf(LenderRejectedError)
    await expect(capture).rejects.toThrow(/was voided; nothing can be captured/)
    const refund = client.refund(contract.gateway_reference, "1.00")
    await expect(refund).rejects.toBeInstanceOf(LenderRejectedError)
    await expect(refund).rejects.toThrow(/was voided/)
    const cardAnswer = client.getVirtualCard(contract.gateway_reference)
    await expect(cardAnswer).rejects.toBeInstanceOf(LenderNotFoundError)
    await expect(cardAnswer).rejects.toThrow(/cancelled/)
    expect(() =>
      simulator.cardTransaction({ pan: card.pan, kind: "charge", amount: "10.00", reference: "ch_after_void" })
    ).toThrow(/virtual card was cancelled/)
    expect(simulator.contract(contract.gateway_reference)).toMatchObject({
      status: "VOIDED",
      captured: "0.00",
      refunded: "0.00",
    })
  })

  it("answers 401 on a signature that does not verify or an unknown account, 400 naming what is wrong", async () => {
    const contract = await approveApplication(simulator, "40.00")
    const wrongToken = await post(signedVoid(contract, {}, "not-the-token"))
    expect(wrongToken.status).toBe(401)
    expect(await messageOf(wrongToken)).toMatch(/Signature problem/)
    const altered = await post({ ...signedVoid(contract), x_amount: "1.00" })
    expect(altered.status).toBe(401)
    const unsigned = await post({ ...signedVoid(contract), x_signature: undefined })
    expect(unsigned.status).toBe(401)
    const stranger = await post(signedVoid(contract, { x_account_id: "nobody" }))
    expect(stranger.status).toBe(401)

    const missing = await post(
      signFields({ x_account_id: SIMULATOR_TEST_ACCOUNT.apiKey, x_amount: "40.00" }, SIMULATOR_TEST_ACCOUNT.apiToken)
    )
    expect(missing.status).toBe(400)
    const missingMessage = await messageOf(missing)
    for (const field of ["x_currency", "x_reference", "x_gateway_reference", "x_transaction_type", "x_test"]) {
      expect(missingMessage).toContain(field)
    }
    const booleans = await post({ ...signedVoid(contract), x_test: true })
    expect(booleans.status).toBe(400)
    expect(await messageOf(booleans)).toMatch(/JSON strings: x_test/)
    const notJson = await post("x_account_id=sim_test_account")
    expect(notJson.status).toBe(400)
    expect(notJson.headers.get("content-type")).toMatch(/json/)
    expect((await post({ x_amount: "1.00" })).status).toBe(400)
    const capture = await post(signedVoid(contract, { x_transaction_type: "capture" }))
    expect(capture.status).toBe(400)
    expect(await messageOf(capture)).toMatch(/not supported by the simulator/)
    expect((await fetch(`${simulator.checkoutUrl}/checkout/api2.aspx`)).status).toBe(405)
    // A Basic header changes nothing: the call is authenticated by its signature alone.
    const withBasic = await fetch(`${simulator.checkoutUrl}/checkout/api2.aspx`, {
      method: "POST",
      headers: { "content-type": "application/json", ...basicAuth(SIMULATOR_TEST_ACCOUNT.apiKey, "wrong") },
      body: JSON.stringify(signedVoid(contract)),
    })
    expect(withBasic.status).toBe(200)
    expect(simulator.contract(contract.gateway_reference)!.status).toBe("VOIDED")
  })

  it("posts the same signed result to x_url_callback, retried until 200, and logs it as a void callback", async () => {
    const store = await callbackReceiver([503, 200])
    const contract = await approveApplication(simulator, "45.00")
    const answer = await voidOf(contract, { callbackUrl: store.url })
    await until(() => store.received.length >= 2)
    expect(store.received.map((entry) => entry.status)).toEqual([503, 200])
    expect(store.received[1].fields).toEqual(answer)
    expect(verifySignature(store.received[1].fields, SIMULATOR_TEST_ACCOUNT.apiToken)).toBe(true)
    // The application's own callbacks carry the same reference: the kind tells them apart.
    const log = () =>
      simulator.callbacks().filter((entry) => entry.reference === contract.reference && entry.kind === "void")
    await until(() => log().length >= 2)
    expect(log().map(({ kind, attempt, status, url }) => ({ kind, attempt, status, url }))).toEqual([
      { kind: "void", attempt: 1, status: 503, url: store.url },
      { kind: "void", attempt: 2, status: 200, url: store.url },
    ])
    const overHttp = await (
      await fetch(`${simulator.url}/_simulator/callbacks?kind=void&reference=${contract.reference}`)
    ).json()
    expect(overHttp).toHaveLength(2)
    const applications = await (
      await fetch(`${simulator.url}/_simulator/callbacks?kind=application&reference=${contract.reference}`)
    ).json()
    expect(applications.length).toBeGreaterThan(0)
    expect(applications.every((entry: { kind: string }) => entry.kind === "application")).toBe(true)

    // A refused void is posted too: the lender sends the same result it answers.
    await expect(voidOf(contract, { callbackUrl: store.url })).rejects.toBeInstanceOf(LenderDeclinedError)
    await until(() => store.received.length >= 3)
    expect(store.received[2].fields).toMatchObject({
      x_result: "failed",
      x_message: expect.stringMatching(/was voided/),
    })
    await store.close()
  })

  it("arms void faults, including bad_signature, and refuses bad_signature for the REST operations", async () => {
    const contract = await approveApplication(simulator, "25.00")
    const armed = await fetch(`${simulator.url}/_simulator/contracts/${contract.gateway_reference}/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ operation: "void", kind: "bad_signature" }),
    })
    expect(armed.status).toBe(200)
    await expect(voidOf(contract)).rejects.toMatchObject({ code: "bad_signature", outcome: "in_doubt" })
    expect(simulator.contract(contract.gateway_reference)!.status).toBe("VOIDED")
    expect(() =>
      simulator.injectFault(contract.gateway_reference, { operation: "capture", kind: "bad_signature" } as never)
    ).toThrow(/invalid fault: kind/)
  })
})
