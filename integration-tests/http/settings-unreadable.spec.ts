import { orderIdOf } from "../../test-support/storefront"
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { SIMULATOR_TEST_ACCOUNT, type Simulator } from "../../src/lenders/paybright/simulator"
import { PAYBRIGHT_MODULE } from "../../src/modules/paybright"
import type PayBrightModuleService from "../../src/modules/paybright/service"
import { secretContext, SETTINGS_RECHECK_MS } from "../../src/lib/effective-settings"
import { SecretBox, SETTINGS_KEY_ENV } from "../../src/lib/secret-box"
import { PAYBRIGHT_UNAVAILABLE_TO_SHOPPERS } from "../../src/lib/settings-messages"
import type { PayBrightAttentionItem } from "../../src/lib/admin-types"
import { useAppPort } from "../helpers/app-port"
import { deliverCallback, deliveryOf } from "../helpers/approvals"
import { orderInsertDroppedOnce, whileRefusingWrites } from "../helpers/database-faults"
import { follow, submitApplication } from "../helpers/hosted-application"
import { medusaTotals, orderPayment } from "../helpers/ledger"
import { medusaExec } from "../helpers/medusa-exec"
import type { SeededStore } from "../../test-support/seed-store"
import { cartReadyForPayment, choosePayBright, storeHeaders } from "../helpers/shopper"
import { useSimulator } from "../helpers/simulator"
import { storeFixture, type StoreFixture } from "../helpers/store-fixture"

jest.setTimeout(240_000)

const KEY = "the-key-every-process-of-this-store-shares-0123456789"
const SETTINGS = "/admin/paybright/settings/pp_paybright_paybright"

useAppPort()
const lender = useSimulator({ decision: "approve", callback: { enabled: false } })
// The app answering the tests holds the right key from boot: it saves and reads the secrets.
beforeAll(() => {
  process.env[SETTINGS_KEY_ENV] = KEY
})
afterAll(() => {
  delete process.env[SETTINGS_KEY_ENV]
})

type Attempt = { ok: true } | { ok: false; message: string }
type Work = { pid: number; session: Attempt; capture: Attempt; job: Attempt }

medusaIntegrationTestRunner({
  env: { MEDUSA_DISABLE_TELEMETRY: "true" },
  testSuite: ({ api, getContainer, dbConfig }) => {
    let simulator: Simulator, store: SeededStore, admin: StoreFixture["admin"]
    let payment: { id: string }, contract: string

    beforeAll(async () => {
      ;({ simulator, store, admin } = await storeFixture(getContainer(), lender, { prices: [499.99, 89.95] }))
      // The merchant saves the API token (encrypted under KEY) and a shop name of their own.
      const saved = await api.post(
        SETTINGS,
        { shopName: "Maison Dupont", apiToken: SIMULATOR_TEST_ACCOUNT.apiToken },
        { ...admin, validateStatus: () => true }
      )
      expect([saved.status, saved.data.message]).toEqual([200, undefined])
      const cart = await cartReadyForPayment(api, store, [{ variantIndex: 0, quantity: 1 }])
      const session = await choosePayBright(api, store, cart)
      expect(session.data.redirect.fields.x_shop_name).toBe("Maison Dupont")
      const back = await follow((await submitApplication(session.data.redirect)).location!)
      const orderId = orderIdOf(back.location)
      payment = await orderPayment(getContainer(), orderId)
      contract = simulator.contractByReference(session.id)!.gateway_reference
    })

    /** Another process of the store, with its own environment, tries PayBright work once. */
    async function workInAnotherProcess(settingsKey: string): Promise<Work & { output: string }> {
      const cart = await cartReadyForPayment(api, store, [{ variantIndex: 1, quantity: 1 }])
      const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "paybright-work-")), "work.json")
      const other = medusaExec("./integration-tests/cross-process/paybright-work.ts", dbConfig.clientUrl, {
        [SETTINGS_KEY_ENV]: settingsKey,
        PAYBRIGHT_WORK_OUT: out,
        PAYBRIGHT_WORK_COLLECTION: cart.paymentCollectionId,
        PAYBRIGHT_WORK_AMOUNT: String(cart.total),
        PAYBRIGHT_WORK_PAYMENT: payment.id,
      })
      const code = await other.exited
      expect([code, fs.existsSync(out) ? "wrote" : other.output().slice(-3000)]).toEqual([0, "wrote"])
      const work = JSON.parse(fs.readFileSync(out, "utf8")) as Work
      fs.rmSync(path.dirname(out), { recursive: true, force: true })
      return { ...work, output: other.output() }
    }

    async function attention(): Promise<PayBrightAttentionItem[]> {
      return (await api.get("/admin/paybright/attention", admin)).data.items
    }

    it("a process with another PAYBRIGHT_SETTINGS_KEY refuses sessions, captures and jobs naming it, and the admin lists it first", async () => {
      const work = await workInAnotherProcess("a-different-key-of-more-than-32-characters-0000")
      for (const [what, attempt] of Object.entries({ capture: work.capture, job: work.job })) {
        expect([what, attempt.ok]).toEqual([what, false])
        expect([what, !attempt.ok && attempt.message]).toEqual([what, expect.stringContaining(SETTINGS_KEY_ENV)])
      }
      // A shopper's storefront is told PayBright is not available, never which setting is wrong.
      expect(work.session).toEqual({ ok: false, message: PAYBRIGHT_UNAVAILABLE_TO_SHOPPERS })
      // Said loudly in that process's log too, and no secret in any of it.
      expect(work.output).toContain(SETTINGS_KEY_ENV)
      expect(work.output).not.toContain(SIMULATOR_TEST_ACCOUNT.apiToken)
      // Nothing moved: no capture at the lender, none in Medusa.
      expect(simulator.contract(contract)!.captures).toEqual([])
      expect((await medusaTotals(getContainer(), payment.id)).captures).toEqual([])

      const items = await attention()
      expect(items[0]).toMatchObject({
        kind: "settings_unreadable",
        order_id: null,
        contract: null,
        record_id: null,
        approval_id: null,
        actions: [],
        movement: null,
      })
      expect(items[0].message).toContain(`process ${work.pid}`)
      expect(items[0].message).toContain("pp_paybright_paybright")
      expect(items[0].message).toContain(SETTINGS_KEY_ENV)

      // This process, with the right key, still runs on what the merchant saved.
      const cart = await cartReadyForPayment(api, store, [{ variantIndex: 1, quantity: 1 }])
      expect((await choosePayBright(api, store, cart)).data.redirect.fields.x_shop_name).toBe("Maison Dupont")
    })

    it("a process without PAYBRIGHT_SETTINGS_KEY refuses too, rather than run on medusa-config.ts", async () => {
      const work = await workInAnotherProcess("")
      expect(work.session).toEqual({ ok: false, message: PAYBRIGHT_UNAVAILABLE_TO_SHOPPERS })
      expect(work.output).toContain(SETTINGS_KEY_ENV)
      expect(work.capture.ok).toBe(false)
      expect(simulator.contract(contract)!.captures).toEqual([])
      const reports = (await attention()).filter((item) => item.kind === "settings_unreadable")
      expect(reports.map((item) => item.message)).toContainEqual(expect.stringContaining(`process ${work.pid}`))

      // Once saved again, a report about the earlier version no longer stands.
      const saved = await api.post(SETTINGS, { shopName: "Maison Dupont & fils" }, admin)
      expect(saved.status).toBe(200)
      expect((await attention()).filter((item) => item.kind === "settings_unreadable")).toEqual([])
    })

    it("the process answering the admin says why it stopped, still sends a returning shopper to the storefront, and runs again once the secret is entered anew", async () => {
      const records = getContainer().resolve<PayBrightModuleService>(PAYBRIGHT_MODULE)
      const [row] = await records.listPayBrightSettings({})
      // Saved under a key this process does not have, as when only some processes were given a new key.
      const sealed = new SecretBox("a-key-only-some-processes-were-given-0123456789").encrypt(
        SIMULATOR_TEST_ACCOUNT.apiToken,
        secretContext("pp_paybright_paybright", "apiToken")
      )
      await records.updatePayBrightSettings({
        id: row.id,
        encrypted_secrets: { apiToken: sealed },
        // Each test starts from the database as it was after beforeAll; this process may have seen higher versions.
        version: row.version + 100,
      })
      await new Promise((resolve) => setTimeout(resolve, SETTINGS_RECHECK_MS + 200))

      const cart = await cartReadyForPayment(api, store, [{ variantIndex: 1, quantity: 1 }])
      const refused = await api.post(
        `/store/payment-collections/${cart.paymentCollectionId}/payment-sessions`,
        { provider_id: "pp_paybright_paybright" },
        { ...storeHeaders(store), validateStatus: () => true }
      )
      expect(refused.status).toBe(400)
      expect(refused.data.message).toBe(PAYBRIGHT_UNAVAILABLE_TO_SHOPPERS)
      // A shopper back from the lender lands on the storefront, not on an error page.
      const back = await api.get("/paybright/return?x_reference=payses_unknown", {
        maxRedirects: 0,
        validateStatus: () => true,
      })
      expect([back.status, back.headers.location]).toEqual([303, expect.stringMatching(/^http:\/\/localhost:8000\//)])
      // So does one who left the application; and a storefront asking for the limits reads the
      // shopper's sentence, never which setting or variable is wrong.
      const left = await api.get("/paybright/cancel?ctx=unknown", { maxRedirects: 0, validateStatus: () => true })
      expect([left.status, left.headers.location]).toEqual([303, expect.stringMatching(/^http:\/\/localhost:8000\//)])
      const limits = await api.get("/store/paybright/limits", { ...storeHeaders(store), validateStatus: () => true })
      expect([limits.status, limits.data]).toEqual([503, { message: PAYBRIGHT_UNAVAILABLE_TO_SHOPPERS }])

      const { data } = await api.get("/admin/paybright/settings", admin)
      expect(data.settings[0].unreadable).toMatch(
        /the saved apiToken does not decrypt with this process's PAYBRIGHT_SETTINGS_KEY/
      )
      expect((await attention())[0]).toMatchObject({
        kind: "settings_unreadable",
        message: expect.stringContaining(`process ${process.pid}`),
      })
      // Saving without the token would drop it for medusa-config.ts's: refused, naming it.
      const dropped = await api.post(SETTINGS, { shopName: "Maison Dupont" }, { ...admin, validateStatus: () => true })
      expect(dropped.status).toBe(400)
      expect(dropped.data.fields.apiToken).toMatch(/must be entered again/)

      const entered = await api.post(SETTINGS, { apiToken: SIMULATOR_TEST_ACCOUNT.apiToken }, admin)
      expect(entered.data.settings.unreadable).toBeNull()
      expect((await attention()).filter((item) => item.kind === "settings_unreadable")).toEqual([])
      expect((await choosePayBright(api, store, cart)).data.redirect.fields.x_shop_name).toBe("Maison Dupont")
    })

    it("tells the lender's callback and the Store API's completion nothing of the store's configuration", async () => {
      const cart = await cartReadyForPayment(api, store, [{ variantIndex: 1, quantity: 1 }])
      const session = await choosePayBright(api, store, cart)
      const application = await submitApplication(session.data.redirect, "approve")
      const delivery = deliveryOf(application.location!, session.data.redirect.fields.x_url_callback)
      // The approval is recorded, but the order's write fails once: the cart is still to complete.
      const answered = await whileRefusingWrites(
        getContainer().resolve("__pg_connection__"),
        orderInsertDroppedOnce("order_insert_dropped"),
        () => deliverCallback(delivery)
      )
      expect(answered.status).toBe(503)
      const records = getContainer().resolve<PayBrightModuleService>(PAYBRIGHT_MODULE)
      const [row] = await records.listPayBrightSettings({})
      const sealed = new SecretBox("a-key-only-some-processes-were-given-0123456789").encrypt(
        SIMULATOR_TEST_ACCOUNT.apiToken,
        secretContext("pp_paybright_paybright", "apiToken")
      )
      await records.updatePayBrightSettings({
        id: row.id,
        encrypted_secrets: { apiToken: sealed },
        version: row.version + 200,
      })
      await new Promise((resolve) => setTimeout(resolve, SETTINGS_RECHECK_MS + 200))
      const configuration = /PAYBRIGHT_SETTINGS_KEY|decrypt|apiToken|medusa-config|stopped in this process|Settings →/

      try {
        // The lender is asked to deliver again, and reads nothing of why.
        const answered = await deliverCallback(delivery)
        const callbackBody = await answered.text()
        expect([answered.status, callbackBody]).toEqual([503, expect.not.stringMatching(configuration)])

        // The shopper's storefront completes the cart itself: it reads the shopper's sentence.
        const completed = await api.post(
          `/store/carts/${cart.id}/complete`,
          {},
          {
            ...storeHeaders(store),
            validateStatus: () => true,
          }
        )
        expect(JSON.stringify(completed.data)).not.toMatch(configuration)
        expect(JSON.stringify(completed.data)).toContain(PAYBRIGHT_UNAVAILABLE_TO_SHOPPERS)
        // The merchant's side still says why.
        const { data } = await api.get("/admin/paybright/settings", admin)
        expect(data.settings[0].unreadable).toMatch(/does not decrypt with this process's PAYBRIGHT_SETTINGS_KEY/)
      } finally {
        await api.post(SETTINGS, { apiToken: SIMULATOR_TEST_ACCOUNT.apiToken }, admin)
      }
      // Once the settings read again, the lender's next delivery places the order.
      expect((await deliverCallback(delivery)).status).toBe(200)
    })
  },
})
