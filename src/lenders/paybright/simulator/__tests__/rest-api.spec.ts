import { startSimulator, SIMULATOR_TEST_ACCOUNT, passesLuhn, type Simulator } from ".."
import { LenderClient } from "../../client"
import { LenderAuthError, LenderDeclinedError, LenderNotFoundError, LenderRejectedError } from "../../../errors"
import { isCaptureSuccess, isRefundSuccess, type CaptureRequest } from "../../schemas"
import { approveApplication } from "../../../../../test-support/simulator-application"
import { basicAuth, clientOf } from "./helpers"

const OTHER_ACCOUNT = { apiKey: "sim_other_merchant", apiToken: "sim_other_token" }

describe("simulator: REST API", () => {
  let simulator: Simulator
  let client: LenderClient
  const cardUrl = (orderNumber: string, apiKey: string = SIMULATOR_TEST_ACCOUNT.apiKey) =>
    `${simulator.apiUrl}/api/vcn/pan?merchantApiKey=${encodeURIComponent(apiKey)}&orderNumber=${encodeURIComponent(orderNumber)}`
  const captureOf = (amount: string, reference: string): CaptureRequest => ({
    x_account_id: SIMULATOR_TEST_ACCOUNT.apiKey,
    x_amount: amount,
    x_reference: reference,
    x_currency: "CAD",
    x_test: true,
  })

  beforeAll(async () => {
    simulator = await startSimulator({
      decision: "approve",
      callback: { enabled: false },
      accounts: [SIMULATOR_TEST_ACCOUNT, OTHER_ACCOUNT],
    })
    client = clientOf(simulator)
  })
  afterAll(() => simulator.close())

  describe("virtual card", () => {
    it("answers the same Luhn-valid Visa card on every call, every digit intact, integers as the spec writes them", async () => {
      const contract = await approveApplication(simulator, "250.00")
      const raw = await fetch(cardUrl(contract.gateway_reference), {
        headers: basicAuth(SIMULATOR_TEST_ACCOUNT.apiKey, SIMULATOR_TEST_ACCOUNT.apiToken),
      })
      expect(raw.status).toBe(200)
      const text = await raw.text()
      const rawPan = /"pan":(\d+)[,}]/.exec(text)?.[1]
      const rawExpiration = /"expiration":(\d+)[,}]/.exec(text)?.[1]
      expect(rawPan).toMatch(/^4\d{15}$/)
      expect(rawExpiration).toMatch(/^[1-9]\d{2,3}$/)
      expect(text).toMatch(/"cvv":\d{1,3}[,}]/)

      const card = await client.getVirtualCard(contract.gateway_reference)
      expect(card.pan).toBe(rawPan)
      expect(passesLuhn(card.pan)).toBe(true)
      expect(card.expiration).toBe(rawExpiration!.padStart(4, "0"))
      expect(card.expiration).toMatch(/^(0[1-9]|1[0-2])\d\d$/)
      expect(card.cvv).toMatch(/^\d{3}$/)
      expect(card.card_token).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
      expect(card.cardholder_name).toBe("PAYBRIGHT")
      expect(card.billing_address).toMatchObject({ country: "CAN", state: expect.stringMatching(/^[A-Z]{2}$/) })
      expect(contract.card_last4).toBe(card.pan.slice(-4))
      expect(await client.getVirtualCard(contract.gateway_reference)).toEqual(card)

      const another = await approveApplication(simulator, "250.00")
      expect((await client.getVirtualCard(another.gateway_reference)).pan).not.toBe(card.pan)
    })

    it("pads back an expiry month below October, lost by the integer form", async () => {
      // Random months: a few contracts are enough to meet one in January to September.
      for (let tries = 0; tries < 40; tries++) {
        const contract = await approveApplication(simulator, "10.00")
        const raw = await fetch(cardUrl(contract.gateway_reference), {
          headers: basicAuth(SIMULATOR_TEST_ACCOUNT.apiKey, SIMULATOR_TEST_ACCOUNT.apiToken),
        })
        const rawExpiration = /"expiration":(\d+)[,}]/.exec(await raw.text())![1]
        if (rawExpiration.length === 3) {
          const card = await client.getVirtualCard(contract.gateway_reference)
          expect(card.expiration).toBe(`0${rawExpiration}`)
          return
        }
      }
      throw new Error("no card expiring January to September in 40 contracts")
    })

    it("requires the merchant's Basic credentials, its own key in the query, both parameters, and its own contract", async () => {
      const contract = await approveApplication(simulator, "20.00")
      const auth = basicAuth(SIMULATOR_TEST_ACCOUNT.apiKey, SIMULATOR_TEST_ACCOUNT.apiToken)
      const noAuth = await fetch(cardUrl(contract.gateway_reference))
      expect(noAuth.status).toBe(401)
      expect(await noAuth.json()).toEqual({ message: expect.any(String) })
      const wrongToken = await fetch(cardUrl(contract.gateway_reference), {
        headers: basicAuth(SIMULATOR_TEST_ACCOUNT.apiKey, "wrong"),
      })
      expect(wrongToken.status).toBe(401)
      expect((await fetch(cardUrl(contract.gateway_reference, OTHER_ACCOUNT.apiKey), { headers: auth })).status).toBe(
        401
      )
      expect(
        (
          await fetch(`${simulator.apiUrl}/api/vcn/pan?merchantApiKey=${SIMULATOR_TEST_ACCOUNT.apiKey}`, {
            headers: auth,
          })
        ).status
      ).toBe(400)

      const other = clientOf(simulator, OTHER_ACCOUNT)
      await expect(other.getVirtualCard(contract.gateway_reference)).rejects.toBeInstanceOf(LenderNotFoundError)
      await expect(client.getVirtualCard("999999")).rejects.toBeInstanceOf(LenderNotFoundError)
      const wrong = clientOf(simulator, { apiKey: SIMULATOR_TEST_ACCOUNT.apiKey, apiToken: "wrong" })
      await expect(wrong.getVirtualCard(contract.gateway_reference)).rejects.toBeInstanceOf(LenderAuthError)
    })
  })

  describe("in-store capture", () => {
    it("captures in parts up to the authorized amount: Complete after a part, FINAL when all is captured", async () => {
      const contract = await approveApplication(simulator, "100.00")
      const first = await client.capture(contract.gateway_reference, captureOf("60", contract.reference))
      expect(first).toMatchObject({
        x_account_id: SIMULATOR_TEST_ACCOUNT.apiKey,
        x_reference: contract.reference,
        x_currency: "CAD",
        x_test: "true",
        x_amount: "60.00",
        x_gateway_reference: contract.gateway_reference,
        x_result: "Completed",
      })
      expect(isCaptureSuccess(first)).toBe(true)
      expect(first.x_timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)
      expect(simulator.contract(contract.gateway_reference)).toMatchObject({ status: "Complete", captured: "60.00" })

      await client.capture(contract.gateway_reference, captureOf("39.99", contract.reference))
      await client.capture(contract.gateway_reference, captureOf("0.01", contract.reference))
      const view = simulator.contract(contract.gateway_reference)!
      expect(view).toMatchObject({ status: "FINAL", authorized: "100.00", captured: "100.00" })
      expect(view.captures.map((capture) => capture.amount)).toEqual(["60.00", "39.99", "0.01"])
    })

    it("refuses to capture more than remains, nothing, or in another currency or mode, and captures nothing", async () => {
      const contract = await approveApplication(simulator, "80.00")
      await client.capture(contract.gateway_reference, captureOf("50.00", contract.reference))
      const over = client.capture(contract.gateway_reference, captureOf("30.01", contract.reference))
      await expect(over).rejects.toBeInstanceOf(LenderRejectedError)
      await expect(over).rejects.toThrow(/exceeds the amount remaining/)
      await expect(client.capture(contract.gateway_reference, captureOf("0.00", contract.reference))).rejects.toThrow(
        /greater than zero/
      )
      await expect(
        client.capture(contract.gateway_reference, { ...captureOf("1.00", contract.reference), x_currency: "USD" })
      ).rejects.toThrow(/x_currency/)
      await expect(
        client.capture(contract.gateway_reference, { ...captureOf("1.00", contract.reference), x_test: false })
      ).rejects.toThrow(/x_test/)
      await expect(client.capture("999999", captureOf("1.00", contract.reference))).rejects.toBeInstanceOf(
        LenderNotFoundError
      )
      expect(simulator.contract(contract.gateway_reference)).toMatchObject({ captured: "50.00", status: "Complete" })
    })

    it("captures again on a repeated call, as the spec promises no idempotency, and refuses any reference but the application's", async () => {
      const contract = await approveApplication(simulator, "80.00")
      await client.capture(contract.gateway_reference, captureOf("40.00", contract.reference))
      await client.capture(contract.gateway_reference, captureOf("40.00", contract.reference))
      expect(simulator.contract(contract.gateway_reference)).toMatchObject({ captured: "80.00", status: "FINAL" })
      const other = await approveApplication(simulator, "10.00")
      const wrong = client.capture(other.gateway_reference, captureOf("10.00", "medusa-capture-id"))
      await expect(wrong).rejects.toBeInstanceOf(LenderRejectedError)
      await expect(wrong).rejects.toThrow(/x_reference must be/)
      expect(simulator.contract(other.gateway_reference)!.captured).toBe("0.00")
    })

    it("names the invalid fields of a body, and checks x_account_id against the credentials", async () => {
      const contract = await approveApplication(simulator, "10.00")
      const auth = {
        ...basicAuth(SIMULATOR_TEST_ACCOUNT.apiKey, SIMULATOR_TEST_ACCOUNT.apiToken),
        "content-type": "application/json",
      }
      const url = `${simulator.apiUrl}/api/v2/instore/${contract.gateway_reference}/capture`
      const invalid = await fetch(url, {
        method: "POST",
        headers: auth,
        body: JSON.stringify({ x_account_id: SIMULATOR_TEST_ACCOUNT.apiKey, x_amount: "1.234", x_test: "yes" }),
      })
      expect(invalid.status).toBe(400)
      const body = await invalid.json()
      expect(body).toMatchObject({
        x_result: "Failed",
        x_account_id: SIMULATOR_TEST_ACCOUNT.apiKey,
        x_gateway_reference: contract.gateway_reference,
      })
      for (const field of ["x_amount", "x_reference", "x_currency", "x_test"]) {
        expect(body.x_message).toContain(field)
      }
      const notJson = await fetch(url, { method: "POST", headers: auth, body: "{" })
      expect(notJson.status).toBe(400)
      const foreign = await fetch(url, {
        method: "POST",
        headers: auth,
        body: JSON.stringify({ ...captureOf("1.00", contract.reference), x_account_id: OTHER_ACCOUNT.apiKey }),
      })
      expect(foreign.status).toBe(401)
      expect(simulator.contract(contract.gateway_reference)!.captured).toBe("0.00")
    })

    it("answers captureResult as configured", async () => {
      const contract = await approveApplication(simulator, "10.00")
      simulator.settings = { captureResult: "success" }
      try {
        const answer = await client.capture(contract.gateway_reference, captureOf("10.00", contract.reference))
        expect(answer.x_result).toBe("success")
      } finally {
        simulator.settings = { captureResult: "Completed" }
      }
    })
  })

  describe("in-store refund", () => {
    it("refunds captured money in parts, never more than captured and not yet refunded", async () => {
      const contract = await approveApplication(simulator, "100.00")
      await expect(client.refund(contract.gateway_reference, "1.00")).rejects.toBeInstanceOf(LenderRejectedError)
      await client.capture(contract.gateway_reference, captureOf("60.00", contract.reference))
      const refund = await client.refund(contract.gateway_reference, "10")
      expect(refund).toMatchObject({
        message: "success",
        Amount: "10.00",
        CreatedDate: expect.stringMatching(/^\d\d\/\d\d\/\d{4}$/),
      })
      expect(refund.ProcessingDate).toMatch(/^\d\d\/\d\d\/\d{4}$/)
      expect(isRefundSuccess(refund)).toBe(true)
      const over = client.refund(contract.gateway_reference, "50.01")
      await expect(over).rejects.toBeInstanceOf(LenderRejectedError)
      await expect(over).rejects.toThrow(/exceeds/)
      await client.refund(contract.gateway_reference, "50.00")
      expect(simulator.contract(contract.gateway_reference)).toMatchObject({ captured: "60.00", refunded: "60.00" })
      expect(simulator.contract(contract.gateway_reference)!.refunds.map((entry) => entry.amount)).toEqual([
        "10.00",
        "50.00",
      ])
    })
  })

  describe("injected failures", () => {
    it("fails the next capture once with 400, then once with 200 and x_result Failed, capturing nothing either time", async () => {
      const contract = await approveApplication(simulator, "40.00")
      simulator.failNext(contract.gateway_reference, {
        operation: "capture",
        status: 400,
        message: "Contract under review",
      })
      const refused = client.capture(contract.gateway_reference, captureOf("40.00", contract.reference))
      await expect(refused).rejects.toBeInstanceOf(LenderRejectedError)
      await expect(refused).rejects.toThrow(/Contract under review/)

      simulator.failNext(contract.gateway_reference, { operation: "capture", status: 200, message: "Declined by risk" })
      const notCaptured = client.capture(contract.gateway_reference, captureOf("40.00", contract.reference))
      await expect(notCaptured).rejects.toBeInstanceOf(LenderDeclinedError)
      await expect(notCaptured).rejects.toMatchObject({
        outcome: "refused",
        evidence: { x_result: "Failed", x_message: "Declined by risk" },
      })
      expect(simulator.contract(contract.gateway_reference)).toMatchObject({ captured: "0.00", status: "PENDING" })

      const captured = await client.capture(contract.gateway_reference, captureOf("40.00", contract.reference))
      expect(isCaptureSuccess(captured)).toBe(true)
      expect(simulator.contract(contract.gateway_reference)).toMatchObject({ captured: "40.00", status: "FINAL" })
    })

    it("fails the next refund or card retrieval once", async () => {
      const contract = await approveApplication(simulator, "40.00")
      await client.capture(contract.gateway_reference, captureOf("40.00", contract.reference))
      simulator.failNext(contract.gateway_reference, { operation: "refund", status: 500, message: "Try later" })
      await expect(client.refund(contract.gateway_reference, "5.00")).rejects.toThrow(/Try later/)
      expect(simulator.contract(contract.gateway_reference)!.refunded).toBe("0.00")
      await client.refund(contract.gateway_reference, "5.00")

      simulator.failNext(contract.gateway_reference, { operation: "card", status: 404, message: "No card yet" })
      await expect(client.getVirtualCard(contract.gateway_reference)).rejects.toBeInstanceOf(LenderNotFoundError)
      expect((await client.getVirtualCard(contract.gateway_reference)).pan).toMatch(/^4\d{15}$/)
    })

    it("refuses to arm a failure on an unknown contract", () => {
      expect(() => simulator.failNext("999999", { operation: "capture", status: 400, message: "x" })).toThrow(
        /no contract/
      )
    })
  })
})
