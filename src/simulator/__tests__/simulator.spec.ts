import http from "node:http"
import type { AddressInfo } from "node:net"
import { startSimulator, SIMULATOR_TEST_ACCOUNT, type Simulator } from ".."
import { LenderClient } from "../../lender/client"
import { signFields, verifySignature } from "../../lender/signing"
import { applicationFields, approveApplication } from "./approve"

type Received = { fields: Record<string, string>; status: number }

/** A store's callback endpoint: answers with the statuses it is given, in turn. */
async function callbackReceiver(statuses: number[]) {
  const received: Received[] = []
  const server = http.createServer((req, res) => {
    let body = ""
    req.on("data", (chunk) => (body += chunk))
    req.on("end", () => {
      const status = statuses[Math.min(received.length, statuses.length - 1)]
      received.push({ fields: Object.fromEntries(new URLSearchParams(body)), status })
      res.writeHead(status)
      res.end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`, received, close: () => server.close() }
}

async function post(url: string, fields: Record<string, string>) {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual",
  })
}

async function until(check: () => boolean) {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 20))
}

describe("lender simulator", () => {
  let simulator: Simulator
  const form = (simulatorUrl: string) => `${simulatorUrl}/CheckOut/ApplicationForm.aspx`

  beforeAll(async () => {
    simulator = await startSimulator({ callback: { retries: 3, retryIntervalMs: 20 } })
  })
  afterAll(() => simulator.close())

  it("shows the application, and on approval signs the result, calls back until answered 200, and redirects", async () => {
    const store = await callbackReceiver([500, 200])
    const page = await post(form(simulator.url), applicationFields("312.50", "ref-approve", store.url))
    const html = await page.text()
    expect(page.status).toBe(200)
    expect(html).toContain("312.50")
    expect(html).toContain('id="approve"')
    const id = /name="application_id" value="([^"]+)"/.exec(html)![1]

    const decided = await post(`${simulator.url}/CheckOut/decision`, { application_id: id, decision: "approve" })
    expect(decided.status).toBe(303)
    const complete = new URL(decided.headers.get("location")!)
    expect(complete.pathname).toBe("/return")
    expect(complete.searchParams.get("keep")).toBe("1")
    const result = Object.fromEntries(complete.searchParams)
    delete (result as Record<string, string>).keep
    expect(verifySignature(result, SIMULATOR_TEST_ACCOUNT.apiToken)).toBe(true)
    expect(result).toMatchObject({ x_result: "Completed", x_amount: "312.50", x_reference: "ref-approve" })

    await until(() => store.received.length >= 2)
    expect(store.received.map((entry) => entry.status)).toEqual([500, 200])
    expect(store.received[1].fields).toEqual(result)
    expect(simulator.contract(result.x_gateway_reference)).toMatchObject({ status: "PENDING", authorized: "312.50" })

    const again = await post(`${simulator.url}/CheckOut/decision`, { application_id: id, decision: "approve" })
    expect(again.status).toBe(409)
    store.close()
  })

  it("signs a decline as Failed and opens no contract; leaving goes to the cancel URL untouched", async () => {
    simulator.settings = { decision: "decline" }
    const declined = await post(form(simulator.url), applicationFields("50.00", "ref-decline"))
    const fields = Object.fromEntries(new URL(declined.headers.get("location")!).searchParams)
    expect(fields.x_result).toBe("Failed")
    expect(simulator.contractByReference("ref-decline")).toBeUndefined()

    simulator.settings = { decision: "ask" }
    const html = await (await post(form(simulator.url), applicationFields("50.00", "ref-leave"))).text()
    const id = /name="application_id" value="([^"]+)"/.exec(html)![1]
    const left = await post(`${simulator.url}/CheckOut/decision`, { application_id: id, decision: "leave" })
    expect(left.headers.get("location")).toBe("http://127.0.0.1:9/cancel?session_id=abc")
  })

  it("refuses a forged signature, an unknown merchant and invalid fields, naming what is wrong", async () => {
    const fields = applicationFields("10.00", "ref-bad")
    expect((await post(form(simulator.url), { ...fields, x_amount: "1.00" })).status).toBe(401)
    const stranger = signFields({ ...fields, x_account_id: "nobody" }, "token")
    expect((await post(form(simulator.url), stranger)).status).toBe(401)
    const invalid = signFields({ ...fields, x_amount: "ten", x_url_callback: "nowhere" }, SIMULATOR_TEST_ACCOUNT.apiToken)
    const answer = await post(form(simulator.url), invalid)
    expect(answer.status).toBe(400)
    const text = await answer.text()
    expect(text).toContain("x_amount")
    expect(text).toContain("x_url_callback")
  })

  it("captures idempotently by x_reference and honours injected failures", async () => {
    simulator.settings = { decision: "approve" }
    const contract = await approveApplication(simulator, "80.00")
    const client = new LenderClient({ apiUrl: simulator.apiUrl, ...SIMULATOR_TEST_ACCOUNT })
    const request = { x_account_id: SIMULATOR_TEST_ACCOUNT.apiKey, x_amount: "30.00", x_reference: "cap-a", x_currency: "CAD", x_test: true }
    await client.capture(contract.gateway_reference, request)
    await client.capture(contract.gateway_reference, request)
    expect(simulator.contract(contract.gateway_reference)).toMatchObject({ captured: "30.00", status: "Complete" })
    await expect(client.capture(contract.gateway_reference, { ...request, x_amount: "31.00" })).rejects.toThrow(/already used/)

    simulator.failNext(contract.gateway_reference, { operation: "capture", status: 200, message: "Declined by risk" })
    const notCaptured = await client.capture(contract.gateway_reference, { ...request, x_reference: "cap-b" })
    expect(notCaptured).toMatchObject({ x_result: "Failed", x_message: "Declined by risk" })
    await client.capture(contract.gateway_reference, { ...request, x_reference: "cap-c", x_amount: "50.00" })
    expect(simulator.contract(contract.gateway_reference)).toMatchObject({ captured: "80.00", status: "FINAL" })
  })

  it("never shows the card number or security code outside the virtual card endpoint", async () => {
    const contract = await approveApplication(simulator, "20.00")
    const card = await new LenderClient({ apiUrl: simulator.apiUrl, ...SIMULATOR_TEST_ACCOUNT }).getVirtualCard(contract.gateway_reference)
    const control = await (await fetch(`${simulator.url}/_simulator/contracts/${contract.gateway_reference}`)).text()
    expect(control).toContain(card.pan.slice(-4))
    expect(control).not.toContain(card.pan)
    expect(JSON.stringify(simulator.contract(contract.gateway_reference))).not.toContain(card.pan)
    const noAuth = await fetch(`${simulator.url}/api/vcn/pan?merchantApiKey=${SIMULATOR_TEST_ACCOUNT.apiKey}&orderNumber=${contract.gateway_reference}`)
    expect(noAuth.status).toBe(401)
  })
})
