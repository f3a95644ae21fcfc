import { orderIdOf } from "../../test-support/storefront"
import jwt from "jsonwebtoken"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import type { ConfigModule, MedusaContainer } from "@medusajs/framework/types"
import { PAYBRIGHT_MODULE } from "../../src/modules/paybright"
import type PayBrightModuleService from "../../src/modules/paybright/service"
import { SETTINGS_KEY_ENV } from "../../src/lib/secret-box"
import type { Simulator } from "../../src/lenders/paybright/simulator"
import { startFakeStripe, type FakeStripe } from "../../test-support/fake-stripe"
import { useAppPort } from "../helpers/app-port"
import { follow, submitApplication } from "../helpers/hosted-application"
import { medusaTotals, orderPayment } from "../helpers/ledger"
import { until } from "../helpers/medusa-exec"
import type { SeededStore } from "../../test-support/seed-store"
import { cartReadyForPayment, choosePayBright } from "../helpers/shopper"
import { useSimulator } from "../helpers/simulator"
import { storeFixture } from "../helpers/store-fixture"

jest.setTimeout(180_000)

const SETTINGS = "/admin/paybright/settings/pp_paybright_paybright"
const PLUGIN_POLICIES = ["paybright_settings:update", "paybright_card:reveal"]
/** The role the README gives: captures and refunds, but neither changes where the money goes nor reveals a card. */
const CAPTURE_AND_REFUND = ["order:read", "payment:read", "payment:update", "capture:create", "refund:create"]

let stripe: FakeStripe
useAppPort()
const lender = useSimulator(
  { decision: "approve", callback: { enabled: false } },
  // A capture the lender holds (below) still ends in time.
  { PAYBRIGHT_TIMEOUT_MS: "20000" }
)
// Before the app boots (its configuration is read before the runner's `env` applies), and only for this file.
beforeAll(async () => {
  stripe = await startFakeStripe()
  Object.assign(process.env, {
    MEDUSA_FF_RBAC: "true",
    // In-store capture, with Stripe's connection set up for when the card processor is chosen in the admin.
    PAYBRIGHT_CARD_PROCESSOR: "stripe",
    PAYBRIGHT_STRIPE_URL: stripe.url,
    PAYBRIGHT_STRIPE_KEY: stripe.secretKey,
    // A second registration paid through the virtual card by a person at a terminal.
    PAYBRIGHT_MANUAL_PROVIDER: "1",
    [SETTINGS_KEY_ENV]: "the-key-every-process-of-this-store-shares-0123456789",
  })
})
afterAll(async () => {
  for (const name of [
    "MEDUSA_FF_RBAC",
    "PAYBRIGHT_CARD_PROCESSOR",
    "PAYBRIGHT_STRIPE_URL",
    "PAYBRIGHT_STRIPE_KEY",
    "PAYBRIGHT_MANUAL_PROVIDER",
    SETTINGS_KEY_ENV,
  ]) {
    delete process.env[name]
  }
  await stripe?.close()
})

/** An admin session whose roles grant exactly `policies` (resource:operation; "*:*" for everything). */
async function sessionWith(container: MedusaContainer, email: string, policies: string[]) {
  const rbac = container.resolve(Modules.RBAC) as any
  const role = (await rbac.createRbacRoles([{ name: `role of ${email}` }]))[0]
  for (const policy of policies) {
    const [resource, operation] = policy.split(":")
    const [existing] = await rbac.listRbacPolicies({ resource, operation })
    const found = existing ?? (await rbac.createRbacPolicies([{ key: policy, resource, operation, name: policy }]))[0]
    await rbac.createRbacRolePolicies([{ role_id: role.id, policy_id: found.id }])
  }
  const user = await container.resolve(Modules.USER).createUsers({ email })
  const config = container.resolve(ContainerRegistrationKeys.CONFIG_MODULE) as ConfigModule
  const token = jwt.sign(
    {
      actor_id: user.id,
      actor_type: "user",
      auth_identity_id: "",
      app_metadata: { user_id: user.id, roles: [role.id] },
    },
    config.projectConfig.http.jwtSecret as string,
    { expiresIn: "1h" }
  )
  return { headers: { authorization: `Bearer ${token}` }, validateStatus: () => true }
}

type Session = Awaited<ReturnType<typeof sessionWith>>

medusaIntegrationTestRunner({
  env: { MEDUSA_DISABLE_TELEMETRY: "true" },
  testSuite: ({ api, getContainer }) => {
    let simulator: Simulator, store: SeededStore
    let synced: string[]
    let reader: Session, writer: Session, stranger: Session, keeper: Session, revealer: Session, capturer: Session

    beforeAll(async () => {
      // What Medusa synced from src/policies at boot, before any role below is made.
      const rbac = getContainer().resolve(Modules.RBAC) as any
      synced = (await rbac.listRbacPolicies({ key: PLUGIN_POLICIES })).map((policy: any) => policy.key).sort()
      ;({ simulator, store } = await storeFixture(getContainer(), lender, {
        providerIds: ["pp_paybright_paybright", "pp_paybright_manual-card"],
        prices: [499.99],
      }))
      const container = getContainer()
      reader = await sessionWith(container, "reader@paybright.test", ["order:read", "payment:read"])
      writer = await sessionWith(container, "writer@paybright.test", ["order:read", "payment:read", "payment:update"])
      stranger = await sessionWith(container, "stranger@paybright.test", ["product:read"])
      keeper = await sessionWith(container, "keeper@paybright.test", [
        "order:read",
        "payment:read",
        "payment:update",
        "paybright_settings:update",
      ])
      revealer = await sessionWith(container, "revealer@paybright.test", [
        "order:read",
        "payment:read",
        "payment:update",
        "paybright_card:reveal",
      ])
      capturer = await sessionWith(container, "capturer@paybright.test", CAPTURE_AND_REFUND)
    })

    /** A shopper's order paid with PayBright through `providerId`: its payment and contract. */
    async function placeOrder(providerId = "pp_paybright_paybright") {
      const cart = await cartReadyForPayment(api, store, [{ variantIndex: 0, quantity: 1 }])
      const session = await choosePayBright(api, store, cart, undefined, providerId)
      const back = await follow((await submitApplication(session.data.redirect)).location!)
      const orderId = orderIdOf(back.location)
      const payment = await orderPayment(getContainer(), orderId)
      return { payment, contract: simulator.contractByReference(session.id)!.gateway_reference }
    }

    it("declares the plugin's own policies, lets a reader read and refuses every write without payment:update", async () => {
      expect(synced).toEqual([...PLUGIN_POLICIES].sort())
      for (const path of [
        "/admin/paybright/settings",
        "/admin/paybright/attention",
        "/admin/paybright/authorizations",
      ]) {
        expect([path, (await api.get(path, reader)).status]).toEqual([path, 200])
        expect([path, (await api.get(path, stranger)).status]).toEqual([path, 403])
      }
      const writes = [
        "/admin/paybright/settings/pp_paybright_paybright/check",
        "/admin/paybright/settings/pp_paybright_paybright",
        "/admin/paybright/captures/pbcap_unknown/retry",
        "/admin/paybright/payments/pay_unknown/card/reveal",
        "/admin/paybright/records/rec_unknown/resolve",
      ]
      for (const path of writes) {
        const refused = await api.post(path, { shopName: "Not allowed" }, reader)
        expect([path, refused.status]).toEqual([path, 403])
        expect(refused.data.message).toContain("payment:update")
      }
      // With write access the same save goes through (the lender simulator accepts the credentials).
      const saved = await api.post(SETTINGS, { shopName: "Allowed" }, writer)
      expect(saved.status).toBe(200)
      expect(saved.data.settings.values.shopName).toBe("Allowed")
    })

    it("needs paybright_settings:update to change the card processor, its key, the environment or the credentials, and tries a new Stripe key before storing it", async () => {
      const { data: page } = await api.get("/admin/paybright/settings", writer)
      expect(page.rights).toEqual({ protected_settings: false })
      const current = page.settings.find((view: any) => view.provider_id === "pp_paybright_paybright").values
      // The settings page sends every field: unchanged protected values are no change.
      const unchanged = await api.post(SETTINGS, { ...current, shopName: "Maison Dupont" }, writer)
      expect([unchanged.status, unchanged.data.settings?.values.shopName]).toEqual([200, "Maison Dupont"])

      for (const change of [
        { environment: "production" },
        { apiKey: "someone_elses_account" },
        { apiToken: "someone-elses-token" },
        { cardProcessorType: "manual" },
        { cardProcessorSecretKey: "sk_test_someone_elses_key" },
      ]) {
        for (const path of [SETTINGS, `${SETTINGS}/check`]) {
          const refused = await api.post(path, { ...current, ...change }, writer)
          expect([Object.keys(change)[0], path, refused.status]).toEqual([Object.keys(change)[0], path, 403])
          expect(refused.data.message).toContain("paybright_settings:update")
        }
      }
      expect((await api.get("/admin/paybright/settings", keeper)).data.rights).toEqual({ protected_settings: true })

      // With the policy: a key Stripe does not know is refused after a harmless call, and nothing is stored.
      const before = stripe.requests().length
      const wrongKey = await api.post(
        SETTINGS,
        { cardProcessorType: "stripe", cardProcessorSecretKey: "sk_test_someone_elses_key" },
        keeper
      )
      expect(wrongKey.status).toBe(400)
      expect(wrongKey.data.fields.cardProcessorSecretKey).toMatch(/Stripe did not accept this secret key \(401\)/)
      const records = getContainer().resolve<PayBrightModuleService>(PAYBRIGHT_MODULE)
      const [row] = await records.listPayBrightSettings({ provider_id: "pp_paybright_paybright" })
      expect(row?.encrypted_secrets).not.toHaveProperty("cardProcessorSecretKey")
      const saved = await api.post(SETTINGS, { cardProcessorSecretKey: stripe.secretKey }, keeper)
      expect([saved.status, saved.data.settings?.secrets.cardProcessorSecretKey]).toEqual([
        200,
        { set: true, source: "admin" },
      ])
      expect(saved.data.settings.values.cardProcessorType).toBe("stripe")
      expect(stripe.requests().slice(before)).toEqual([
        { method: "GET", path: "/v1/balance" },
        { method: "GET", path: "/v1/balance" },
      ])
    })

    it("needs paybright_card:reveal to reveal a card, and never reveals one an automatic processor charges", async () => {
      const { payment } = await placeOrder("pp_paybright_manual-card")
      const reveal = (session: Session) => api.post(`/admin/paybright/payments/${payment.id}/card/reveal`, {}, session)

      const refused = await reveal(writer)
      expect(refused.status).toBe(403)
      expect(refused.data.message).toContain("paybright_card:reveal")
      const revealed = await reveal(revealer)
      expect(revealed.status).toBe(200)
      expect(revealed.data.card.pan).toMatch(/^\d{16}$/)

      // A payment authorized under Stripe carries it in its data: its card is never revealed,
      // whatever processor the settings name now.
      const payments = getContainer().resolve(Modules.PAYMENT)
      await payments.updatePayment({ id: payment.id, data: { ...payment.data, card_processor: "stripe" } } as never)
      const automatic = await reveal(revealer)
      expect(automatic.status).toBe(400)
      expect(automatic.data.message).toMatch(/charged by stripe, the processor it was authorized under/)
      const reveals = await getContainer()
        .resolve<PayBrightModuleService>(PAYBRIGHT_MODULE)
        .listPayBrightEvents({ kind: "card.revealed", payment_id: payment.id })
      expect(reveals).toHaveLength(1)
    })

    it("needs capture:create to retry a capture, and capture:create or refund:create to resolve one into Medusa", async () => {
      const { payment, contract } = await placeOrder()
      const records = getContainer().resolve<PayBrightModuleService>(PAYBRIGHT_MODULE)
      const record = (fields: Record<string, unknown>) =>
        records.createPayBrightMoneyRecords({
          payment_id: payment.id,
          contract,
          currency_code: "cad",
          amount: "10.00",
          medusa_amount: "10.00",
          ...fields,
        } as never) as unknown as Promise<{ id: string }>
      const refusedCapture = await record({ kind: "capture", trigger: "shipment", state: "refused", message: "no" })
      const doubtfulRefund = await record({ kind: "refund", trigger: "admin", state: "in_doubt", message: "maybe" })

      const retry = await api.post(`/admin/paybright/captures/${refusedCapture.id}/retry`, {}, writer)
      expect([retry.status, retry.data.message]).toEqual([403, expect.stringContaining("capture:create")])
      const resolve = await api.post(
        `/admin/paybright/records/${doubtfulRefund.id}/resolve`,
        { lender_shows: "nothing" },
        writer
      )
      expect([resolve.status, resolve.data.message]).toEqual([403, expect.stringContaining("refund:create")])
      expect(simulator.contract(contract)!.captured).toBe("0.00")

      const resolved = await api.post(
        `/admin/paybright/records/${doubtfulRefund.id}/resolve`,
        { lender_shows: "nothing" },
        capturer
      )
      expect([resolved.status, resolved.data.record?.state]).toEqual([200, "refused"])
    })

    it("lets the README's capture-and-refund role capture and refund, checks rights before the payment's lock, and refuses it the settings and the card", async () => {
      const { payment, contract } = await placeOrder()
      simulator.injectFault(contract, { operation: "capture", kind: "slow", delayMs: 6_000 })
      const capture = api.post(`/admin/payments/${payment.id}/capture`, { amount: 100 }, capturer)
      await until(
        () => simulator.contract(contract)!.captures.length === 1,
        30_000,
        () => "the capture never reached the lender"
      )
      // While that capture holds the payment's lock: a user without capture:create is refused at
      // once, by Medusa's own rule, rather than left waiting for the lock.
      process.env.PAYBRIGHT_LOCK_WAIT_SECONDS = "1"
      try {
        const notAllowed = await api.post(`/admin/payments/${payment.id}/capture`, { amount: 50 }, writer)
        expect([notAllowed.status, notAllowed.data.message]).toEqual([403, expect.stringContaining("capture:create")])
      } finally {
        delete process.env.PAYBRIGHT_LOCK_WAIT_SECONDS
      }
      expect((await capture).status).toBe(200)
      const refund = await api.post(`/admin/payments/${payment.id}/refund`, { amount: 20 }, capturer)
      expect(refund.status).toBe(200)
      expect(await medusaTotals(getContainer(), payment.id)).toMatchObject({ captured: "100.00", refunded: "20.00" })
      expect(simulator.contract(contract)).toMatchObject({ captured: "100.00", refunded: "20.00" })
      const withoutRefundRight = await api.post(`/admin/payments/${payment.id}/refund`, { amount: 5 }, writer)
      expect(withoutRefundRight.status).toBe(403)

      const settings = await api.post(SETTINGS, { cardProcessorType: "manual" }, capturer)
      expect([settings.status, settings.data.message]).toEqual([
        403,
        expect.stringContaining("paybright_settings:update"),
      ])
      const { payment: manual } = await placeOrder("pp_paybright_manual-card")
      const card = await api.post(`/admin/paybright/payments/${manual.id}/card/reveal`, {}, capturer)
      expect([card.status, card.data.message]).toEqual([403, expect.stringContaining("paybright_card:reveal")])
    })
  },
})
