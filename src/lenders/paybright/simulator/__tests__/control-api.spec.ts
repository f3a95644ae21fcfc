import { startSimulator, SIMULATOR_TEST_ACCOUNT, type Simulator } from ".."
import { LenderClient } from "../../client"
import { applicationFields, approveApplication } from "../../../../../test-support/simulator-application"
import { callbackReceiver, clientOf, postForm, until } from "./helpers"

describe("simulator: control API", () => {
  let simulator: Simulator
  let client: LenderClient
  const logged: string[] = []
  const control = (path: string, init?: RequestInit) => fetch(`${simulator.url}/_simulator${path}`, init)
  const postJson = (path: string, body: unknown) =>
    control(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })

  beforeAll(async () => {
    simulator = await startSimulator({
      decision: "approve",
      callback: { retries: 0 },
      logger: { info: (message) => logged.push(message), warn: (message) => logged.push(message) },
    })
    client = clientOf(simulator)
  })
  afterAll(() => simulator.close())

  it("shows a contract's ledger by gateway reference and by merchant reference", async () => {
    const contract = await approveApplication(simulator, "75.00", "ref-ledger")
    await client.capture(contract.gateway_reference, {
      x_account_id: SIMULATOR_TEST_ACCOUNT.apiKey,
      x_amount: "25.00",
      x_reference: "ref-ledger",
      x_currency: "CAD",
      x_test: true,
    })
    await client.refund(contract.gateway_reference, "5.00")

    const byReference = await control(`/contracts/${contract.gateway_reference}`)
    expect(byReference.status).toBe(200)
    const view = await byReference.json()
    expect(view).toMatchObject({
      gateway_reference: contract.gateway_reference,
      reference: "ref-ledger",
      account_id: SIMULATOR_TEST_ACCOUNT.apiKey,
      currency: "CAD",
      test: true,
      status: "Complete",
      authorized: "75.00",
      captured: "25.00",
      refunded: "5.00",
      captures: [{ reference: "ref-ledger", amount: "25.00", at: expect.any(String) }],
      refunds: [{ amount: "5.00", at: expect.any(String) }],
    })
    expect(await (await control("/contracts?reference=ref-ledger")).json()).toEqual(view)
    expect((await control("/contracts?reference=nobody")).status).toBe(404)
    expect((await control("/contracts/999999")).status).toBe(404)
    expect(
      (await (await control("/contracts")).json()).map((entry: { reference: string }) => entry.reference)
    ).toContain("ref-ledger")
  })

  it("arms failures over HTTP, and refuses a malformed one or an unknown contract", async () => {
    const contract = await approveApplication(simulator, "30.00")
    const armed = await postJson(`/contracts/${contract.gateway_reference}/fail-next`, {
      operation: "capture",
      status: 400,
      message: "On hold",
    })
    expect(armed.status).toBe(200)
    const capture = client.capture(contract.gateway_reference, {
      x_account_id: SIMULATOR_TEST_ACCOUNT.apiKey,
      x_amount: "30.00",
      x_reference: "c",
      x_currency: "CAD",
      x_test: true,
    })
    await expect(capture).rejects.toThrow(/On hold/)

    const malformed = await postJson(`/contracts/${contract.gateway_reference}/fail-next`, {
      operation: "void",
      status: "400",
    })
    expect(malformed.status).toBe(400)
    expect((await malformed.json()).message).toMatch(/operation.*status.*message|operation/)
    expect(
      (await postJson("/contracts/999999/fail-next", { operation: "capture", status: 400, message: "x" })).status
    ).toBe(404)
    expect((await control(`/contracts/${contract.gateway_reference}/fail-next`)).status).toBe(405)
  })

  it("arms faults of the matrix for the next N calls over HTTP, and refuses an unknown kind", async () => {
    const contract = await approveApplication(simulator, "30.00", "ref-faults")
    const armed = await postJson(`/contracts/${contract.gateway_reference}/faults`, {
      operation: "capture",
      kind: "status_503",
      count: 2,
    })
    expect(armed.status).toBe(200)
    expect(await armed.json()).toEqual({ armed: { operation: "capture", kind: "status_503", count: 2 } })
    const capture = () =>
      client.capture(contract.gateway_reference, {
        x_account_id: SIMULATOR_TEST_ACCOUNT.apiKey,
        x_amount: "30.00",
        x_reference: "ref-faults",
        x_currency: "CAD",
        x_test: true,
      })
    await expect(capture()).rejects.toMatchObject({ status: 503, outcome: "in_doubt" })
    await expect(capture()).rejects.toMatchObject({ status: 503 })
    await capture()
    expect(simulator.contract(contract.gateway_reference)!.captured).toBe("30.00")
    const unknown = await postJson(`/contracts/${contract.gateway_reference}/faults`, {
      operation: "capture",
      kind: "gremlins",
    })
    expect(unknown.status).toBe(400)
    expect((await unknown.json()).message).toMatch(/kind/)
  })

  it("changes settings over HTTP, and refuses unknown ones", async () => {
    const changed = await postJson("/settings", { decision: "decline", callback: { retryIntervalMs: 5 } })
    expect(changed.status).toBe(200)
    expect(await changed.json()).toMatchObject({
      decision: "decline",
      captureResult: "Completed",
      callback: { retryIntervalMs: 5, retries: 0, enabled: true },
    })
    expect(simulator.settings.decision).toBe("decline")
    expect((await postJson("/settings", { decison: "approve" })).status).toBe(400)
    expect((await postJson("/settings", { decision: "maybe" })).status).toBe(400)
    expect(() => (simulator.settings = { callback: { retries: -1 } })).toThrow(/callback.retries/)
    expect(await (await control("/settings")).json()).toMatchObject({ decision: "decline" })
    simulator.settings = { decision: "approve" }
  })

  it("shows the callback log", async () => {
    const store = await callbackReceiver([200])
    await postForm(
      `${simulator.checkoutUrl}/CheckOut/ApplicationForm.aspx`,
      applicationFields("12.00", "ref-logged", store.url)
    )
    await until(() => store.received.length > 0)
    await until(() => simulator.callbacks().some((entry) => entry.reference === "ref-logged"))
    const log = await (await control("/callbacks?reference=ref-logged")).json()
    expect(log).toEqual([
      {
        url: store.url,
        reference: "ref-logged",
        kind: "application",
        attempt: 1,
        copy: 1,
        status: 200,
        at: expect.any(String),
      },
    ])
    await store.close()
  })

  it("never shows the card number or security code outside the virtual card endpoint", async () => {
    const contract = await approveApplication(simulator, "20.00", "ref-secret")
    const card = await client.getVirtualCard(contract.gateway_reference)
    const texts = await Promise.all(
      [
        `/contracts/${contract.gateway_reference}`,
        "/contracts?reference=ref-secret",
        "/contracts",
        "/callbacks",
        "/settings",
      ].map(async (path) => (await control(path)).text())
    )
    texts.push(
      JSON.stringify(simulator.contract(contract.gateway_reference)),
      JSON.stringify(simulator.callbacks()),
      logged.join("\n")
    )
    texts.push(await (await fetch(`${simulator.url}/`)).text())
    for (const text of texts) {
      expect(text).not.toContain(card.pan)
      expect(text).not.toMatch(/cvv|"pan"|expiration/i)
    }
    expect(texts[0]).toContain(`"card_last4":"${card.pan.slice(-4)}"`)
  })
})
