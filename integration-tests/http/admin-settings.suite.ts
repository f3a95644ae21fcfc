import { SIMULATOR_TEST_ACCOUNT, type Simulator } from "../../src/lenders/paybright/simulator"
import { PAYBRIGHT_MODULE } from "../../src/modules/paybright"
import type PayBrightModuleService from "../../src/modules/paybright/service"
import { SETTINGS_RECHECK_MS } from "../../src/lib/effective-settings"
import { SETTINGS_KEY_ENV } from "../../src/lib/secret-box"
import type { AppSuite } from "../helpers/one-app"
import { follow, submitApplication } from "../helpers/hosted-application"
import { orderPayment } from "../helpers/ledger"
import type { SeededStore } from "../../test-support/seed-store"
import { storeFixture, type StoreFixture } from "../helpers/store-fixture"
import { cartReadyForPayment, choosePayBright, storeHeaders } from "../helpers/shopper"
import { orderIdOf } from "../../test-support/storefront"

const KEY = "an-integration-test-key-of-more-than-32-characters"
const SETTINGS = "/admin/paybright/settings/pp_paybright_paybright"

export const adminSettings: AppSuite = {
  title: "the admin's settings",
  tests: ({ api, getContainer }, lender) => {
    let simulator: Simulator, store: SeededStore, admin: StoreFixture["admin"]
    const post = (path: string, body: unknown) => api.post(path, body, { ...admin, validateStatus: () => true })
    const module = () => getContainer().resolve<PayBrightModuleService>(PAYBRIGHT_MODULE)

    beforeAll(async () => {
      ;({ simulator, store, admin } = await storeFixture(getContainer(), lender, { prices: [499.99, 1250, 89.95] }))
    })

    afterEach(() => {
      delete process.env[SETTINGS_KEY_ENV]
    })

    it("saves settings over medusa-config.ts: checked, credentials tested, secrets encrypted and masked, audited, used by the next checkout", async () => {
      const { data: before } = await api.get("/admin/paybright/settings", admin)
      const view = before.settings.find((entry: any) => entry.provider_id === "pp_paybright_paybright")
      expect(view.values).toMatchObject({ shopName: "PayBright test store", minOrderAmount: null })
      expect(view.secrets.apiToken).toEqual({ set: true, source: "config" })
      expect(view.secrets_unavailable).toContain(SETTINGS_KEY_ENV)
      expect(JSON.stringify(before)).not.toContain(SIMULATOR_TEST_ACCOUNT.apiToken)

      // Without the key, a secret cannot be saved, and the answer says why.
      const noKey = await post(SETTINGS, { apiToken: SIMULATOR_TEST_ACCOUNT.apiToken })
      expect(noKey.status).toBe(400)
      expect(noKey.data.fields.apiToken).toContain(SETTINGS_KEY_ENV)
      // Besides its English, each answer gives the admin the facts to say it in the merchant's language.
      expect(noKey.data.issues).toEqual([
        expect.objectContaining({ field: "apiToken", code: "key_missing", values: { variable: SETTINGS_KEY_ENV } }),
      ])
      expect(view.secrets_unavailable_facts).toEqual({ code: "key_missing", values: { variable: SETTINGS_KEY_ENV } })

      process.env[SETTINGS_KEY_ENV] = KEY
      // The options schema names each wrong field.
      const invalid = await post(`${SETTINGS}/check`, { minOrderAmount: "500", maxOrderAmount: "1.234", shopName: "" })
      expect(invalid.status).toBe(200)
      expect(invalid.data.valid).toBe(false)
      expect(Object.keys(invalid.data.fields).sort()).toEqual(["maxOrderAmount", "shopName"])
      const reversed = await post(SETTINGS, { minOrderAmount: "500", maxOrderAmount: "100" })
      expect(reversed.status).toBe(400)
      expect(reversed.data.message).toMatch(/maxOrderAmount must not be less than minOrderAmount/)
      expect(reversed.data.issues).toEqual([
        {
          field: "maxOrderAmount",
          code: "not_less_than",
          values: { option: "maxOrderAmount", other: "minOrderAmount", value: "500.00" },
          message: "must not be less than minOrderAmount (500.00)",
        },
      ])

      // A token the lender refuses is reported before anything is stored.
      const refused = await post(SETTINGS, { apiToken: "not-the-token" })
      expect(refused.status).toBe(400)
      expect(refused.data.fields.apiToken).toBe(
        "PayBright (sandbox) did not accept this API key and token; check both in the PayBright portal."
      )
      expect(refused.data.issues).toEqual([
        expect.objectContaining({ field: "apiToken", code: "credentials_refused", values: { environment: "sandbox" } }),
      ])
      // The host and the status are for the log, not the merchant.
      expect(JSON.stringify(refused.data)).not.toMatch(/401|https?:/)
      expect(await module().listPayBrightSettings({})).toHaveLength(0)

      const saved = await post(SETTINGS, {
        shopName: "Maison Dupont",
        minOrderAmount: "100",
        maxOrderAmount: "1000",
        apiToken: SIMULATOR_TEST_ACCOUNT.apiToken,
      })
      expect(saved.status).toBe(200)
      expect(saved.data.credentials.message).toContain("accepted the API key and token")
      expect(saved.data.credentials).toMatchObject({ code: "credentials_accepted", values: { environment: "sandbox" } })
      expect(saved.data.settings).toMatchObject({
        values: { shopName: "Maison Dupont", minOrderAmount: "100.00", maxOrderAmount: "1000.00" },
        secrets: { apiToken: { set: true, source: "admin" } },
        version: 1,
        updated_by: "admin@paybright.test",
      })
      expect(JSON.stringify(saved.data)).not.toContain(SIMULATOR_TEST_ACCOUNT.apiToken)

      // At rest: the token only encrypted; the audit row names who and what, never the value.
      const [row] = await module().listPayBrightSettings({})
      expect(JSON.stringify(row)).not.toContain(SIMULATOR_TEST_ACCOUNT.apiToken)
      expect((row.encrypted_secrets as Record<string, string>).apiToken).toMatch(/^v1:/)
      const audit = await module().listPayBrightEvents({ kind: "settings.changed" })
      expect(audit).toHaveLength(1)
      expect(audit[0].actor).toBe(admin.userId)
      expect(audit[0].message).toMatch(/shopName, minOrderAmount, maxOrderAmount, apiToken \(replaced\)/)
      expect(JSON.stringify(audit)).not.toContain(SIMULATOR_TEST_ACCOUNT.apiToken)

      // A blank secret keeps the stored one.
      const kept = await post(SETTINGS, { shopName: "Maison Dupont & fils", apiToken: "" })
      expect(kept.status).toBe(200)
      expect(kept.data.settings.secrets.apiToken.source).toBe("admin")
      expect(kept.data.settings.version).toBe(2)

      // The next checkout signs the new shop name, and the lender accepts the signature.
      const cart = await cartReadyForPayment(api, store, [{ variantIndex: 0, quantity: 1 }])
      const session = await choosePayBright(api, store, cart)
      expect(session.data.redirect.fields.x_shop_name).toBe("Maison Dupont & fils")
      const back = await follow((await submitApplication(session.data.redirect)).location!)
      expect(orderIdOf(back.location)).toMatch(/^order_/)

      // Outside the limits, the session is refused with a sentence the storefront can show.
      const big = await cartReadyForPayment(api, store, [{ variantIndex: 1, quantity: 1 }])
      const refusedSession = await api.post(
        `/store/payment-collections/${big.paymentCollectionId}/payment-sessions`,
        { provider_id: "pp_paybright_paybright" },
        { ...storeHeaders(store), validateStatus: () => true }
      )
      expect(refusedSession.status).toBeGreaterThanOrEqual(400)
      expect(refusedSession.data.message).toMatch(
        /PayBright financing is available for orders from 100\.00 to 1000\.00 CAD; this order's total is \d+\.\d\d CAD/
      )
      const { data: limits } = await api.get("/store/paybright/limits", storeHeaders(store))
      expect(limits.limits).toContainEqual({
        provider_id: "pp_paybright_paybright",
        currencies: ["CAD"],
        min_order_amount: "100.00",
        max_order_amount: "1000.00",
        financing: null,
        promotional_widget: null,
      })

      // The storefront's financing terms and widget key, saved once here, reach every storefront.
      const incomplete = await post(SETTINGS, { financingMonths: "twelve", financingApr: "9.99" })
      expect(incomplete.status).toBe(400)
      expect(incomplete.data.fields.financingMonths).toBe("must be a whole number of months")
      expect(incomplete.data.issues).toContainEqual(
        expect.objectContaining({ field: "financingMonths", code: "whole_months" })
      )
      const terms = await post(SETTINGS, {
        financingMonths: 12,
        financingApr: "9.99",
        financingSetupFee: "",
        financingMinAmount: "200",
        promotionalWidgetKey: "pk_widget_public",
      })
      expect(terms.status).toBe(200)
      const { data: withTerms } = await api.get("/store/paybright/limits", storeHeaders(store))
      expect(withTerms.limits).toContainEqual(
        expect.objectContaining({
          financing: { months: 12, apr: "9.99", setup_fee: null, monthly_fee: null, min_amount: "200.00" },
          promotional_widget: { public_key: "pk_widget_public", script_url: `${simulator.checkoutUrl}/dist/sdk.js` },
        })
      )

      // Another process saves (a row with a higher version): this one follows within seconds.
      await module().updatePayBrightSettings({
        id: row.id,
        overrides: { ...(row.overrides as object), shopName: "Saved elsewhere" },
        version: 10,
      })
      await new Promise((resolve) => setTimeout(resolve, SETTINGS_RECHECK_MS + 200))
      const later = await cartReadyForPayment(api, store, [{ variantIndex: 2, quantity: 2 }])
      expect((await choosePayBright(api, store, later)).data.redirect.fields.x_shop_name).toBe("Saved elsewhere")
    })

    it("shows an order's PayBright panel: status in words, amounts, records and timeline, and the remainder captured", async () => {
      const cart = await cartReadyForPayment(api, store, [{ variantIndex: 0, quantity: 1 }])
      const session = await choosePayBright(api, store, cart)
      const back = await follow((await submitApplication(session.data.redirect)).location!)
      const orderId = orderIdOf(back.location)
      const payment = await orderPayment(getContainer(), orderId)
      const contract = simulator.contractByReference(session.id)!.gateway_reference

      const first = (await api.get(`/admin/paybright/orders/${orderId}/panel`, admin)).data.panel
      expect(first).toMatchObject({
        contract,
        status: "awaiting_capture",
        expiring: false,
        captured: "0.00",
        refunded: "0.00",
        capture_mode: "in_store",
        // Nothing captured: Medusa's own "Capture payment" takes it all, and the panel points there.
        actions: { capture_in_medusa: true, capture_remainder: false, reveal_card: false },
      })
      expect(first.remaining).toBe(first.authorized)
      expect(first.expires_in_days).toBe(30)
      expect(first.timeline.map((entry: any) => entry.kind)).toEqual(["approval.verified"])
      const { data: awaiting } = await api.get("/admin/paybright/attention", admin)
      expect(awaiting.items).toContainEqual(expect.objectContaining({ order_id: orderId, kind: "open_authorization" }))

      await api.post(`/admin/payments/${payment.id}/capture`, { amount: 100 }, admin)
      const partial = (await api.get(`/admin/paybright/orders/${orderId}/panel`, admin)).data.panel
      // Part captured: Medusa's button would ask for the whole authorization; the panel captures the rest.
      expect(partial).toMatchObject({
        status: "partially_captured",
        captured: "100.00",
        actions: { capture_in_medusa: false, capture_remainder: true },
      })
      await api.post(`/admin/payments/${payment.id}/capture`, { amount: Number(partial.remaining) }, admin)
      const done = (await api.get(`/admin/paybright/orders/${orderId}/panel`, admin)).data.panel
      expect(done).toMatchObject({
        status: "captured",
        remaining: "0.00",
        actions: { capture_in_medusa: false, capture_remainder: false },
      })
      expect(done.records.map((record: any) => [record.kind, record.trigger, record.state])).toEqual([
        ["capture", "admin", "done"],
        ["capture", "admin", "done"],
      ])
      expect(done.timeline.map((entry: any) => entry.kind)).toEqual([
        "capture.done",
        "capture.done",
        "approval.verified",
      ])
      expect(simulator.contract(contract)!.captured).toBe(done.captured)

      // The needs-attention list no longer holds it; it held it while awaiting capture.
      const { data: attention } = await api.get("/admin/paybright/attention", admin)
      expect(attention.items.filter((item: any) => item.order_id === orderId)).toEqual([])
    })
  },
}
