import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { paymentLockKey } from "../../src/lib/payment-lock"
import type { Simulator } from "../../src/lenders/paybright/simulator"
import { useAppPort } from "../helpers/app-port"
import { medusaTotals } from "../helpers/ledger"
import { medusaExec, until } from "../helpers/medusa-exec"
import { placePayBrightOrder } from "../helpers/placed-order"
import type { SeededStore } from "../../test-support/seed-store"
import { useSimulator } from "../helpers/simulator"
import { storeFixture, type StoreFixture } from "../helpers/store-fixture"

jest.setTimeout(180_000)

/** How long the lender holds the first capture's answer: well within the call's time limit below. */
const LENDER_HOLDS_MS = 8_000

useAppPort()
const lender = useSimulator(
  { decision: "approve", callback: { enabled: false } },
  // The lender's answer arrives in time: the first capture ends done, however long it is held.
  { PAYBRIGHT_TIMEOUT_MS: "20000" }
)

medusaIntegrationTestRunner({
  env: { MEDUSA_DISABLE_TELEMETRY: "true" },
  testSuite: ({ api, getContainer, dbConfig }) => {
    let simulator: Simulator, store: SeededStore, admin: StoreFixture["admin"]

    beforeAll(async () => {
      ;({ simulator, store, admin } = await storeFixture(getContainer(), lender, { prices: [499.99] }))
    })

    afterEach(() => {
      delete process.env.PAYBRIGHT_LOCK_WAIT_SECONDS
    })

    it("refuses to boot when PAYBRIGHT_LOCK_TTL_SECONDS is shorter than a capture the options allow, naming the option", async () => {
      // timeoutMs 20 s and 30 s for the database: a 30 s lease cannot cover an in-store capture.
      const boot = medusaExec("./integration-tests/cross-process/boot-only.ts", dbConfig.clientUrl, {
        PAYBRIGHT_LOCK_TTL_SECONDS: "30",
      })
      expect(await boot.exited).not.toBe(0)
      expect(boot.output()).not.toContain("booted")
      expect(boot.output()).toMatch(/`timeoutMs` makes one capture take up to 50 s .* PAYBRIGHT_LOCK_TTL_SECONDS=30/)

      const fits = medusaExec("./integration-tests/cross-process/boot-only.ts", dbConfig.clientUrl, {
        PAYBRIGHT_LOCK_TTL_SECONDS: "60",
      })
      expect([await fits.exited, fits.output()]).toEqual([0, expect.stringContaining("booted")])
    })

    it("keeps the payment's lock after the admin's client leaves: a second capture waits for the first or is refused, never runs beside it", async () => {
      const { payment, reference } = await placePayBrightOrder(api, getContainer(), store, simulator, admin, [
        { variantIndex: 0, quantity: 1 },
      ])
      simulator.injectFault(reference, { operation: "capture", kind: "slow", delayMs: LENDER_HOLDS_MS })

      // The admin captures, and their browser (or a proxy's timeout) leaves while the lender holds the answer.
      const leaving = new AbortController()
      const first = api
        .post(`/admin/payments/${payment.id}/capture`, { amount: 100 }, { ...admin, signal: leaving.signal })
        .catch((error: Error) => error)
      await until(
        () => simulator.contract(reference)!.captures.length === 1,
        30_000,
        () => "the first capture never reached the lender"
      )
      leaving.abort()
      expect(await first).toMatchObject({ name: "CanceledError" })

      // Its lease outlives the longest capture these options allow: timeoutMs 20 s, and the admin
      // may switch to the virtual card charged on Stripe (20 s each try): 3 card reads (60.6 s)
      // then 3 Stripe tries with up to 60 s between them, and a cancellation (200 s).
      const lease = await getContainer()
        .resolve(ContainerRegistrationKeys.PG_CONNECTION)
        .raw(`SELECT EXTRACT(EPOCH FROM expiration - NOW()) AS seconds FROM locking WHERE id = ?`, [
          paymentLockKey(payment.id),
        ])
      expect(Number(lease.rows[0].seconds)).toBeGreaterThan(260.6)

      // Another capture of the same payment, willing to wait one second for the lock: refused, nothing sent.
      process.env.PAYBRIGHT_LOCK_WAIT_SECONDS = "1"
      const second = await api.post(
        `/admin/payments/${payment.id}/capture`,
        { amount: 50 },
        { ...admin, validateStatus: () => true }
      )
      expect([second.status, second.data.message]).toEqual([
        409,
        expect.stringMatching(/another capture or refund of this payment is running/i),
      ])
      expect(simulator.contract(reference)!.captures.map((capture) => capture.amount)).toEqual(["100.00"])

      // The first capture ends as the lender answered it, and only then may the next one run.
      await until(
        async () => (await medusaTotals(getContainer(), payment.id)).captured === "100.00",
        30_000,
        () => "the first capture was not recorded"
      )
      delete process.env.PAYBRIGHT_LOCK_WAIT_SECONDS
      const third = await api.post(`/admin/payments/${payment.id}/capture`, { amount: 50 }, admin)
      expect(third.status).toBe(200)
      expect(simulator.contract(reference)!.captures.map((capture) => capture.amount)).toEqual(["100.00", "50.00"])
      const { data } = await api.get(`/admin/paybright/payments/${payment.id}/records`, admin)
      expect(data.records.map((record: any) => [record.kind, record.amount, record.state])).toEqual([
        ["capture", "50.00", "done"],
        ["capture", "100.00", "done"],
      ])
    })
  },
})
