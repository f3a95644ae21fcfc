import http from "node:http"
import type { AddressInfo } from "node:net"
import { startSimulator, SIMULATOR_TEST_ACCOUNT, type Simulator } from "../simulator"
import { LenderClient, parseJson } from "../client"
import {
  LenderAuthError,
  LenderNetworkError,
  LenderNotFoundError,
  LenderRejectedError,
  LenderResponseError,
} from "../../errors"
import { approveApplication } from "../../../../test-support/simulator-application"

describe("lender client, over real HTTP", () => {
  let simulator: Simulator
  let client: LenderClient

  beforeAll(async () => {
    simulator = await startSimulator({ decision: "approve", callback: { enabled: false } })
    client = new LenderClient({
      apiUrl: simulator.apiUrl,
      checkoutUrl: simulator.checkoutUrl,
      ...SIMULATOR_TEST_ACCOUNT,
      timeoutMs: 2000,
    })
  })
  afterAll(() => simulator.close())

  it("fetches the contract's virtual card with every digit and leading zero intact", async () => {
    const contract = await approveApplication(simulator, "250.00")
    const card = await client.getVirtualCard(contract.gateway_reference)
    expect(card.pan).toMatch(/^4\d{15}$/)
    expect(card.pan.slice(-4)).toBe(contract.card_last4)
    expect(card.expiration).toMatch(/^(0[1-9]|1[0-2])\d{2}$/)
    expect(card.cvv).toMatch(/^\d{3}$/)
    expect(await client.getVirtualCard(contract.gateway_reference)).toEqual(card)
  })

  it("captures and refunds, and turns the lender's refusals into typed errors", async () => {
    const contract = await approveApplication(simulator, "100.00")
    const request = {
      x_account_id: SIMULATOR_TEST_ACCOUNT.apiKey,
      x_amount: "60.00",
      x_reference: contract.reference,
      x_currency: "CAD",
      x_test: true,
    }
    const captured = await client.capture(contract.gateway_reference, request)
    expect(captured).toMatchObject({
      x_result: "Completed",
      x_amount: "60.00",
      x_test: "true",
      x_gateway_reference: contract.gateway_reference,
    })

    const over = client.capture(contract.gateway_reference, { ...request, x_amount: "40.01" })
    await expect(over).rejects.toBeInstanceOf(LenderRejectedError)
    await expect(over).rejects.toThrow(/exceeds the amount remaining/)

    expect(await client.refund(contract.gateway_reference, "10.00")).toMatchObject({
      message: "success",
      Amount: "10.00",
    })
    await expect(client.refund(contract.gateway_reference, "50.01")).rejects.toBeInstanceOf(LenderRejectedError)
    await expect(client.getVirtualCard("999999")).rejects.toBeInstanceOf(LenderNotFoundError)
  })

  it("never lets the credential into an error", async () => {
    const wrong = new LenderClient({
      apiUrl: simulator.apiUrl,
      checkoutUrl: simulator.checkoutUrl,
      apiKey: SIMULATOR_TEST_ACCOUNT.apiKey,
      apiToken: "wrong-token-value",
    })
    const error = await wrong.getVirtualCard("51325").catch((caught) => caught)
    expect(error).toBeInstanceOf(LenderAuthError)
    const everything = JSON.stringify({ message: error.message, ...error }) + String(error.stack)
    expect(everything).not.toContain("wrong-token-value")
    expect(everything).not.toContain(
      Buffer.from(`${SIMULATOR_TEST_ACCOUNT.apiKey}:wrong-token-value`).toString("base64")
    )
  })

  it("closes an idle connection before the lender's announced keep-alive timeout, so no call goes out on one the lender is closing", async () => {
    // A lender that keeps idle connections 3 s and says so (Keep-Alive: timeout=3).
    const closedByClient: boolean[] = []
    const lender = http.createServer((_, res) => {
      res.writeHead(200, { "content-type": "application/json" })
      res.end("{}")
    })
    lender.keepAliveTimeout = 3_000
    lender.on("connection", (socket) => {
      const index = closedByClient.push(false) - 1
      socket.on("end", () => (closedByClient[index] = true))
    })
    await new Promise<void>((resolve) => lender.listen(0, "127.0.0.1", resolve))
    try {
      const base = `http://127.0.0.1:${(lender.address() as AddressInfo).port}`
      const idle = new LenderClient({ apiUrl: base, checkoutUrl: base, ...SIMULATOR_TEST_ACCOUNT, readRetries: 0 })
      await expect(idle.getVirtualCard("1")).rejects.toBeInstanceOf(LenderResponseError)
      // Past the client's limit (a second before the lender's), before the lender's own.
      await new Promise((resolve) => setTimeout(resolve, 2_500))
      expect(closedByClient).toEqual([true])
    } finally {
      lender.closeAllConnections()
      await new Promise((resolve) => lender.close(resolve))
    }
  })

  it("gives up after its timeout, and names bad fields of a body without their values", async () => {
    const silent = http.createServer((req, res) => {
      if (req.url?.startsWith("/api/vcn/pan")) {
        res.writeHead(200, { "content-type": "application/json" })
        res.end(
          '{"card_token":"t","created":"x","expiration":1399,"cvv":12,"pan":4111111111111111,"cardholder_name":"P","billing_address":{}}'
        )
      }
      // otherwise never answer
    })
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve))
    const base = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`
    const impatient = new LenderClient({
      apiUrl: base,
      checkoutUrl: base,
      ...SIMULATOR_TEST_ACCOUNT,
      timeoutMs: 1000,
      readRetries: 0,
    })
    const bad = await impatient.getVirtualCard("1").catch((caught) => caught)
    expect(bad).toBeInstanceOf(LenderResponseError)
    expect(bad.message).toMatch(/expiration/)
    expect(bad.message).not.toContain("4111111111111111")
    const timedOut = await impatient
      .capture("1", { x_account_id: "a", x_amount: "1.00", x_reference: "r", x_currency: "CAD", x_test: true })
      .catch((caught) => caught)
    expect(timedOut).toBeInstanceOf(LenderNetworkError)
    // The capture may have been made: in doubt, and the error says only what happened.
    expect(timedOut).toMatchObject({ maybeDone: true, outcome: "in_doubt" })
    expect(timedOut.message).toBe("PayBright did not answer in time for the capture")
    silent.closeAllConnections()
    silent.close()
    const closed = await impatient
      .capture("1", { x_account_id: "a", x_amount: "1.00", x_reference: "r", x_currency: "CAD", x_test: true })
      .catch((caught) => caught)
    expect(closed).toMatchObject({ maybeDone: false, outcome: "refused" })
    expect(closed.message).toMatch(/could not be reached; nothing was sent/)
  })

  it("keeps a card number above 2^53 exact", () => {
    expect(parseJson('{"pan":9999999999999999999,"cvv":7}')).toEqual({ pan: "9999999999999999999", cvv: "7" })
  })
})
