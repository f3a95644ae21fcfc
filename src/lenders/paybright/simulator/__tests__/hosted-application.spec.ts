import { startSimulator, SIMULATOR_TEST_ACCOUNT, type Simulator } from ".."
import { signFields, verifySignature } from "../../signing"
import { applicationFields } from "../../../../../test-support/simulator-application"
import { applicationId, callbackReceiver, postForm, queryFields, sleep, until } from "./helpers"

describe("simulator: hosted application", () => {
  let simulator: Simulator
  const formUrl = () => `${simulator.checkoutUrl}/CheckOut/ApplicationForm.aspx`
  const decisionUrl = () => `${simulator.checkoutUrl}/CheckOut/decision`

  beforeAll(async () => {
    simulator = await startSimulator({ callback: { retries: 3, retryIntervalMs: 20 } })
  })
  afterAll(() => simulator.close())
  beforeEach(() => {
    simulator.settings = { decision: "ask", callback: { enabled: true } }
  })

  it("shows the purchase, and on approval redirects with a signed Completed result and calls back until answered 200", async () => {
    const store = await callbackReceiver([500, 200])
    const fields = applicationFields("312.50", "ref-approve", store.url, {
      x_customer_first_name: "Ada",
      x_customer_last_name: "Lovelace",
    })
    const page = await postForm(formUrl(), fields)
    const html = await page.text()
    expect(page.status).toBe(200)
    for (const shown of ["Test shop", "312.50", "CAD", "ref-approve", "Ada Lovelace", "TEST MODE"]) {
      expect(html).toContain(shown)
    }
    for (const id of ['id="approve"', 'id="decline"', 'id="leave"']) {
      expect(html).toContain(id)
    }

    const decided = await postForm(decisionUrl(), { application_id: applicationId(html), decision: "approve" })
    expect(decided.status).toBe(303)
    const location = new URL(decided.headers.get("location")!)
    expect(`${location.origin}${location.pathname}`).toBe("http://127.0.0.1:9/return")
    expect(location.searchParams.get("keep")).toBe("1")
    const result = queryFields(location.href, ["keep"])
    expect(verifySignature(result, SIMULATOR_TEST_ACCOUNT.apiToken)).toBe(true)
    expect(result).toMatchObject({
      x_account_id: SIMULATOR_TEST_ACCOUNT.apiKey,
      x_reference: "ref-approve",
      x_amount: "312.50",
      x_currency: "CAD",
      x_test: "true",
      x_result: "Completed",
      x_transaction_type: "authorization",
      x_message: "Approved",
    })
    expect(result.x_gateway_reference).toMatch(/^\d+$/)
    expect(result.x_timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)

    await until(() => store.received.length >= 2)
    expect(store.received.map((entry) => entry.status)).toEqual([500, 200])
    expect(store.received[1].fields).toEqual(result)
    // The simulator logs an attempt once it has read the answer, a moment after the store sent it.
    const attempts = () => simulator.callbacks().filter((entry) => entry.reference === "ref-approve")
    await until(() => attempts().length >= 2)
    const log = attempts()
    expect(log.map(({ attempt, status, url }) => ({ attempt, status, url }))).toEqual([
      { attempt: 1, status: 500, url: store.url },
      { attempt: 2, status: 200, url: store.url },
    ])
    expect(simulator.contract(result.x_gateway_reference)).toMatchObject({
      reference: "ref-approve",
      status: "PENDING",
      authorized: "312.50",
      captured: "0.00",
      currency: "CAD",
      test: true,
    })

    const again = await postForm(decisionUrl(), { application_id: applicationId(html), decision: "approve" })
    expect(again.status).toBe(409)
    await store.close()
  })

  it("gives up on a callback after the configured retries", async () => {
    const store = await callbackReceiver([503])
    simulator.settings = { decision: "approve", callback: { retries: 2 } }
    await postForm(formUrl(), applicationFields("10.00", "ref-unreachable", store.url))
    await until(() => store.received.length >= 3)
    await sleep(80)
    expect(store.received).toHaveLength(3)
    expect(
      simulator
        .callbacks()
        .filter((entry) => entry.reference === "ref-unreachable")
        .map((entry) => entry.status)
    ).toEqual([503, 503, 503])
    simulator.settings = { callback: { retries: 3 } }
    await store.close()
  })

  it("delivers each result as many times as the callback copies say, each copy retried on its own", async () => {
    const store = await callbackReceiver([500, 200])
    simulator.settings = { decision: "approve", callback: { copies: 2, copyIntervalMs: 150 } }
    const approved = await postForm(formUrl(), applicationFields("20.00", "ref-twice", store.url))
    const result = queryFields(approved.headers.get("location"), ["keep"])
    await until(() => store.received.length >= 3)
    await sleep(250)
    // Copy 1 is refused once and retried; copy 2 starts 150 ms after copy 1, whatever happened to it.
    expect(store.received.map((entry) => entry.fields)).toEqual([result, result, result])
    const log = simulator.callbacks().filter((entry) => entry.reference === "ref-twice")
    expect(log.map(({ copy, attempt, status }) => ({ copy, attempt, status }))).toEqual([
      { copy: 1, attempt: 1, status: 500 },
      { copy: 1, attempt: 2, status: 200 },
      { copy: 2, attempt: 1, status: 200 },
    ])
    expect(() => (simulator.settings = { callback: { copies: 0 } })).toThrow(/callback.copies/)
    simulator.settings = { callback: { copies: 1, copyIntervalMs: 0 } }
    await store.close()
  })

  it("counts an attempt the store does not answer within callback.timeoutMs as failed, and retries it", async () => {
    const http = await import("node:http")
    let calls = 0
    const slow = http.createServer((_req, res) => {
      // The first attempt is answered too late; the retry at once.
      if (++calls === 1) setTimeout(() => res.end(), 300)
      else res.end()
    })
    await new Promise<void>((resolve) => slow.listen(0, "127.0.0.1", resolve))
    const url = `http://127.0.0.1:${(slow.address() as { port: number }).port}/callback`
    simulator.settings = { decision: "approve", callback: { timeoutMs: 100 } }
    try {
      await postForm(formUrl(), applicationFields("15.00", "ref-slow", url))
      await until(() => simulator.callbacks().some((entry) => entry.reference === "ref-slow" && entry.status === 200))
      const log = simulator.callbacks().filter((entry) => entry.reference === "ref-slow")
      expect(log.map(({ attempt, status, error }) => ({ attempt, status, error }))).toEqual([
        { attempt: 1, status: undefined, error: "no answer within 100 ms" },
        { attempt: 2, status: 200, error: undefined },
      ])
    } finally {
      simulator.settings = { callback: { timeoutMs: 10_000 } }
      slow.closeAllConnections()
      slow.close()
    }
  })

  it("on decline signs a Failed result with an application number, calls back, and opens no contract", async () => {
    const store = await callbackReceiver([200])
    simulator.settings = { decision: "decline" }
    const declined = await postForm(formUrl(), applicationFields("50.00", "ref-decline", store.url))
    expect(declined.status).toBe(303)
    const result = queryFields(declined.headers.get("location"), ["keep"])
    expect(verifySignature(result, SIMULATOR_TEST_ACCOUNT.apiToken)).toBe(true)
    expect(result).toMatchObject({ x_result: "Failed", x_message: "Application declined", x_reference: "ref-decline" })
    expect(result.x_gateway_reference).toMatch(/^\d+$/)
    expect(simulator.contractByReference("ref-decline")).toBeUndefined()
    expect(simulator.contract(result.x_gateway_reference)).toBeUndefined()
    await until(() => store.received.length >= 1)
    expect(store.received[0].fields).toEqual(result)
    await store.close()
  })

  it("sends a shopper who leaves to the cancel URL exactly as given, without a callback", async () => {
    const store = await callbackReceiver([200])
    const html = await (await postForm(formUrl(), applicationFields("50.00", "ref-leave", store.url))).text()
    const left = await postForm(decisionUrl(), { application_id: applicationId(html), decision: "leave" })
    expect(left.status).toBe(303)
    expect(left.headers.get("location")).toBe("http://127.0.0.1:9/cancel?session_id=abc")
    await sleep(60)
    expect(store.received).toHaveLength(0)
    expect(simulator.contractByReference("ref-leave")).toBeUndefined()
    await store.close()
  })

  it("refuses a forged signature and an unknown merchant with 401", async () => {
    const fields = applicationFields("10.00", "ref-bad")
    const forged = await postForm(formUrl(), { ...fields, x_amount: "1.00" })
    expect(forged.status).toBe(401)
    expect(await forged.text()).toContain("Signature problem")

    const stranger = await postForm(formUrl(), signFields({ ...fields, x_account_id: "nobody" }, "some-token"))
    expect(stranger.status).toBe(401)
    expect(await stranger.text()).toContain("Unknown merchant")
  })

  it("refuses invalid fields with 400, naming each", async () => {
    const { x_shop_name: _omitted, ...fields } = applicationFields("10.00", "ref-invalid")
    const invalid = signFields(
      { ...fields, x_amount: "ten", x_url_callback: "nowhere" },
      SIMULATOR_TEST_ACCOUNT.apiToken
    )
    const answer = await postForm(formUrl(), invalid)
    expect(answer.status).toBe(400)
    expect(answer.headers.get("content-type")).toMatch(/text\/html/)
    const text = await answer.text()
    for (const field of ["x_amount", "x_url_callback", "x_shop_name"]) {
      expect(text).toContain(field)
    }
    expect(simulator.contractByReference("ref-invalid")).toBeUndefined()
  })

  it("answers 404 for an unknown application and 400 for an unknown decision", async () => {
    expect((await postForm(decisionUrl(), { application_id: "nope", decision: "approve" })).status).toBe(404)
    const html = await (await postForm(formUrl(), applicationFields("10.00", "ref-odd"))).text()
    expect((await postForm(decisionUrl(), { application_id: applicationId(html), decision: "maybe" })).status).toBe(400)
  })

  it("matches the lender's paths whatever their case, as the iOS SDK sends them", async () => {
    simulator.settings = { decision: "approve" }
    const lowercase = await postForm(
      `${simulator.checkoutUrl}/checkout/applicationform.aspx`,
      applicationFields("10.00", "ref-case")
    )
    expect(lowercase.status).toBe(303)
    expect(simulator.contractByReference("ref-case")).toBeDefined()
  })
})
