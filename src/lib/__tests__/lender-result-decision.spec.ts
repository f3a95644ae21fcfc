import { MedusaError } from "@medusajs/framework/utils"
import type { ApprovalRecord } from "../approval-record"
import type { Checkout } from "../find-checkout"
import {
  afterPlacement,
  decide,
  needs,
  nextStep,
  PAYMENT_CANCELLED,
  placementFailureOf,
  type LenderResultFacts,
  type PlacementFailure,
  type RegistrationFacts,
} from "../lender-result-decision"

const NOW = Date.parse("2026-11-25T12:00:00Z")
const FIELDS = { x_reference: "payses_1", x_gateway_reference: "51325", x_signature: "s" }

const registration = (patch: Partial<RegistrationFacts> = {}): RegistrationFacts => ({
  provider_id: "pp_paybright_paybright",
  account_id: "key",
  capture_mode: "in_store",
  grace_minutes: 10,
  channel: { capture_mode: "in_store", card_processor: null, environment: "sandbox", account_id: "key" },
  accepts_transaction_type: true,
  ...patch,
})
const inStore = registration()
const virtualCard = registration({
  capture_mode: "virtual_card",
  channel: { capture_mode: "virtual_card", card_processor: "manual", environment: "sandbox", account_id: "key" },
})
const second = registration({ provider_id: "pp_paybright_second", account_id: "key-2" })

/** The session payses_1 as Medusa keeps it: 402.4010025 CAD (a Quebec total), in a cart of Quebec. */
function checkout(patch: Partial<Checkout> = {}, session: Partial<Checkout["session"]> = {}): Checkout {
  return {
    session: {
      id: "payses_1",
      provider_id: inStore.provider_id,
      amount: "402.4010025",
      currency_code: "cad",
      status: "pending",
      data: {},
      payment_collection_id: "paycol_1",
      ...session,
    },
    cartId: "cart_1",
    countryCode: "ca",
    ...patch,
  }
}

function row(patch: Partial<Record<string, unknown>> = {}): ApprovalRecord {
  return {
    id: "apv_known",
    contract: "51325",
    session_id: "payses_1",
    provider_id: inStore.provider_id,
    cart_id: "cart_1",
    state: "approved",
    reason: null,
    order_id: null,
    created_at: new Date(NOW - 60_000),
    ...patch,
  } as unknown as ApprovalRecord
}

/** An approval of 402.40 CAD for payses_1, signed by the in-store registration, with its session. */
function facts(patch: Partial<LenderResultFacts> & { outcome?: "completed" | "pending" | "failed" } = {}) {
  const { outcome, ...rest } = patch
  return {
    result: {
      contract: "51325",
      session_id: "payses_1",
      account_id: "key",
      amount: "402.40",
      currency_code: "CAD",
      outcome: outcome ?? "completed",
      fields: FIELDS,
    },
    signer: inStore,
    registrations: [inStore, second],
    unusable: null,
    checkout: checkout(),
    now: NOW,
    ...rest,
  } as LenderResultFacts
}

const failure = (patch: Partial<PlacementFailure> = {}): PlacementFailure => ({
  busy: false,
  payment_cancelled: false,
  permanent: false,
  message: "the cart could not be completed",
  ...patch,
})

/**
 * The action in short: what is answered, written to the session, or recorded (with its orphan
 * reason) and what follows while the row stays open.
 */
function plan(given: LenderResultFacts) {
  const action = decide(given)
  if (action.kind !== "approval") return { [action.kind]: action.outcome }
  return {
    record: action.record ? (action.record.orphan_reason ?? "open") : "stands",
    then: action.after.kind === "orphan" ? `orphan ${action.after.reason}` : action.after.kind,
    country: action.country_code,
  }
}

/**
 * Where the approval ends: the step after its row is recorded as the module records it (an orphan
 * reason makes an orphan; a known row that stands is the row), or found decided by another delivery.
 */
function end(given: LenderResultFacts, recordedAs?: ApprovalRecord) {
  const action = decide(given)
  const recorded =
    action.kind === "approval" && action.record
      ? row({
          id: "apv_1",
          created_at: new Date(NOW),
          state: action.record.orphan_reason ? "orphaned" : "approved",
          reason: action.record.orphan_reason,
        })
      : given.known
  return nextStep(action, recordedAs ?? recorded, given.now)
}

describe("the lender result's decision", () => {
  describe("decide: facts → action", () => {
    it.each<[string, LenderResultFacts, object]>([
      // An unusable result.
      [
        "a result with request fields",
        facts({ unusable: "request_fields", checkout: undefined }),
        { record: "request_fields", then: "answer", country: undefined },
      ],
      [
        "a result of the other test mode",
        facts({ unusable: "test_mismatch", checkout: undefined }),
        { record: "test_mismatch", then: "answer", country: undefined },
      ],
      [
        "an unknown result",
        facts({ unusable: "unknown_result", checkout: undefined }),
        { record: "unknown_result", then: "answer", country: undefined },
      ],
      // A repeat of an order.
      [
        "a repeat of an order",
        facts({ known: row({ state: "ordered", order_id: "order_1" }), known_country: "ca", checkout: undefined }),
        { answer: { kind: "placed", orderId: "order_1", countryCode: "ca" } },
      ],
      [
        "an ordered row of another session",
        facts({
          known: row({ state: "ordered", order_id: "order_1", session_id: "payses_2" }),
          checkout: checkout({ orderId: "order_1" }),
          completion_running: false,
          order_payments: [{ contract: "51325" }],
        }),
        { record: "stands", then: "mark_ordered", country: "ca" },
      ],
      // A decline or a pending result.
      [
        "a decline for its session",
        facts({ outcome: "failed", session_has_approval: false }),
        { record_on_session: { kind: "declined", countryCode: "ca" } },
      ],
      [
        "a pending result for its session",
        facts({ outcome: "pending", session_has_approval: false }),
        { record_on_session: { kind: "pending", countryCode: "ca" } },
      ],
      [
        "a decline on a session holding an approval",
        facts({ outcome: "failed", session_has_approval: true }),
        { answer: { kind: "declined", countryCode: "ca" } },
      ],
      [
        "a decline on an authorized session",
        facts({ outcome: "failed", checkout: checkout({}, { status: "authorized" }) }),
        { answer: { kind: "declined", countryCode: "ca" } },
      ],
      [
        "a pending result without its session",
        facts({ outcome: "pending", checkout: undefined }),
        { answer: { kind: "pending" } },
      ],
      [
        "a pending result for a changed cart",
        facts({ outcome: "pending", result: { ...facts().result, outcome: "pending", amount: "1.00" } }),
        { answer: { kind: "pending", countryCode: "ca" } },
      ],
      // An approval without its session.
      [
        "an approval whose session is gone",
        facts({ checkout: undefined }),
        { record: "session_replaced", then: "orphan session_replaced", country: undefined },
      ],
      [
        "an approval whose return token leads to a cart of another amount",
        facts({ checkout: undefined, token_cart: { cartId: "cart_1", amount: "500", countryCode: "ca" } }),
        { record: "cart_changed", then: "orphan cart_changed", country: "ca" },
      ],
      [
        "an approval whose return token leads to a cart of the same amount",
        facts({ checkout: undefined, token_cart: { cartId: "cart_1", amount: "402.4010025", countryCode: "ca" } }),
        { record: "session_replaced", then: "orphan session_replaced", country: "ca" },
      ],
      [
        "an approval recorded while its session lived",
        facts({ checkout: undefined, known: row() }),
        { record: "stands", then: "orphan session_replaced", country: undefined },
      ],
      [
        "an approval signed by another account than its session's",
        facts({ signer: second, result: { ...facts().result, account_id: "key-2" } }),
        { record: "session_replaced", then: "orphan session_replaced", country: undefined },
      ],
      // An approval that cannot become an order.
      [
        "an approval of another amount",
        facts({ result: { ...facts().result, amount: "402.41" } }),
        { record: "cart_changed", then: "place", country: "ca" },
      ],
      [
        "an approval of another currency",
        facts({ result: { ...facts().result, currency_code: "USD" } }),
        { record: "cart_changed", then: "place", country: "ca" },
      ],
      [
        "an auto-capture account's approval",
        facts({ registrations: [registration({ accepts_transaction_type: false })] }),
        { record: "auto_capture_account", then: "place", country: "ca" },
      ],
      [
        "an approval whose session has no cart",
        facts({ checkout: checkout({ cartId: undefined }) }),
        { record: "completion_failed", then: "answer", country: "ca" },
      ],
      // A cart that already has an order.
      [
        "a cart whose order this contract pays",
        facts({
          checkout: checkout({ orderId: "order_9" }),
          completion_running: false,
          order_payments: [{ contract: "51325" }],
        }),
        { record: "open", then: "mark_ordered", country: "ca" },
      ],
      [
        "a cart whose order another contract pays",
        facts({
          checkout: checkout({ orderId: "order_9" }),
          completion_running: false,
          order_payments: [{ contract: "40000" }],
        }),
        { record: "open", then: "orphan second_contract", country: "ca" },
      ],
      [
        "a cart whose order has no payment",
        facts({ checkout: checkout({ orderId: "order_9" }), completion_running: false, order_payments: [] }),
        { record: "open", then: "place", country: "ca" },
      ],
      [
        "a cart whose order a running completion holds",
        facts({ checkout: checkout({ orderId: "order_9" }), completion_running: true }),
        { record: "open", then: "place", country: "ca" },
      ],
      // The placement.
      ["an approval for its session", facts(), { record: "open", then: "place", country: "ca" }],
      ["a repeat of an open approval", facts({ known: row() }), { record: "stands", then: "place", country: "ca" }],
      [
        "a usable result after an unusable one",
        facts({ known: row({ state: "orphaned", reason: "test_mismatch" }) }),
        { record: "open", then: "place", country: "ca" },
      ],
      [
        "a repeat of an orphan",
        facts({ known: row({ state: "orphaned", reason: "completion_failed" }) }),
        { record: "stands", then: "place", country: "ca" },
      ],
      [
        "an approval on the second registration's session",
        facts({
          signer: second,
          result: { ...facts().result, account_id: "key-2" },
          checkout: checkout({}, { provider_id: second.provider_id }),
        }),
        { record: "open", then: "place", country: "ca" },
      ],
      // A virtual card.
      [
        "a virtual-card approval with its card",
        facts({
          registrations: [virtualCard],
          signer: virtualCard,
          card: { retrieved: true, at: "2026-11-25T11:59:30.000Z" },
        }),
        { record: "open", then: "place", country: "ca" },
      ],
      [
        "a virtual-card approval without its card",
        facts({ registrations: [virtualCard], signer: virtualCard, card: { retrieved: false } }),
        { record: "open", then: "unplaced", country: "ca" },
      ],
      [
        "a repeat of a virtual-card approval",
        facts({ registrations: [virtualCard], signer: virtualCard, known: row() }),
        { record: "stands", then: "place", country: "ca" },
      ],
      // A placement that failed.
      [
        "a placement that found the cart busy",
        facts({ known: row(), failure: failure({ busy: true }) }),
        { record: "stands", then: "answer", country: "ca" },
      ],
      [
        "a placement that failed",
        facts({ known: row(), failure: failure() }),
        { record: "stands", then: "unplaced", country: "ca" },
      ],
      [
        "a failed placement whose order stands paid meanwhile",
        facts({
          known: row(),
          failure: failure(),
          checkout: checkout({ orderId: "order_3" }),
          completion_running: false,
          order_payments: [{ contract: "51325" }],
        }),
        { record: "stands", then: "mark_ordered", country: "ca" },
      ],
    ])("%s", (_name, given, expected) => {
      expect(plan(given)).toEqual(expected)
    })
  })

  describe("nextStep: the row recorded → what follows", () => {
    const old = (minutes: number) => row({ created_at: new Date(NOW - minutes * 60_000) })
    it.each(
      (
        [
          [
            "an unusable result is an orphan",
            facts({ unusable: "test_mismatch", checkout: undefined }),
            { kind: "answer", outcome: { kind: "orphaned", reason: "test_mismatch", countryCode: undefined } },
          ],
          [
            "a gone session orphans a row recorded while it lived",
            facts({ checkout: undefined, known: row() }),
            { kind: "orphan", approval_id: "apv_known", reason: "session_replaced" },
          ],
          [
            "a repeat of an orphan answers from its row",
            facts({ known: row({ state: "orphaned", reason: "completion_failed" }) }),
            { kind: "answer", outcome: { kind: "orphaned", reason: "completion_failed", countryCode: "ca" } },
          ],
          [
            "a changed cart's orphan answers from its row",
            facts({ result: { ...facts().result, amount: "402.41" } }),
            { kind: "answer", outcome: { kind: "orphaned", reason: "cart_changed", countryCode: "ca" } },
          ],
          ["an open approval is placed", facts(), { kind: "place", approval_id: "apv_1", contract: "51325" }],
          [
            "an order this contract pays is marked ordered",
            facts({
              checkout: checkout({ orderId: "order_9" }),
              completion_running: false,
              order_payments: [{ contract: "51325" }],
            }),
            { kind: "mark_ordered", approval_id: "apv_1", order_id: "order_9" },
          ],
          [
            "a row another delivery ordered meanwhile answers its order",
            facts(),
            { kind: "answer", outcome: { kind: "placed", orderId: "order_3", countryCode: "ca" } },
            row({ state: "ordered", order_id: "order_3" }),
          ],
          [
            "a second approval of a session is an orphan from the start",
            facts(),
            { kind: "answer", outcome: { kind: "orphaned", reason: "second_contract", countryCode: "ca" } },
            row({ state: "orphaned", reason: "second_contract" }),
          ],
          [
            "a late card within the grace period waits",
            facts({ registrations: [virtualCard], signer: virtualCard, card: { retrieved: false } }),
            { kind: "answer", outcome: { kind: "processing", countryCode: "ca" } },
          ],
          [
            "a busy cart answers processing",
            facts({ known: row(), failure: failure({ busy: true }) }),
            { kind: "answer", outcome: { kind: "processing", countryCode: "ca" } },
          ],
          [
            "a passing failure within the grace period waits",
            facts({ known: row(), failure: failure() }),
            { kind: "answer", outcome: { kind: "processing", countryCode: "ca" } },
          ],
          [
            "Medusa refusing the cart makes an orphan at once",
            facts({ known: row(), failure: failure({ permanent: true }) }),
            { kind: "orphan_unplaced", approval_id: "apv_known", reason: "completion_failed", placement_error: null },
          ],
          [
            "a cancelled payment makes an orphan at once",
            facts({ known: row(), failure: failure({ payment_cancelled: true, permanent: true }) }),
            { kind: "orphan_unplaced", approval_id: "apv_known", reason: "payment_cancelled", placement_error: null },
          ],
          [
            "an amount authorizePayment found changed makes an orphan at once",
            facts({
              known: row(),
              failure: failure(),
              checkout: checkout({}, { status: "error", data: { paybright_status: "expired" } }),
            }),
            { kind: "orphan_unplaced", approval_id: "apv_known", reason: "cart_changed", placement_error: null },
          ],
          [
            "a passing failure past the grace period is kept for a person",
            facts({ known: old(11), failure: failure({ message: "Timed-out acquiring lock." }) }),
            {
              kind: "orphan_unplaced",
              approval_id: "apv_known",
              reason: "not_placed",
              placement_error: "Timed-out acquiring lock.",
            },
          ],
          [
            "a card still missing past the grace period is given up",
            facts({ known: old(180), failure: failure(), checkout: checkout({}, { status: "requires_more" }) }),
            { kind: "orphan_unplaced", approval_id: "apv_known", reason: "card_unavailable", placement_error: null },
          ],
          [
            "a card missing within the grace period waits even when refused",
            facts({
              known: row(),
              failure: failure({ permanent: true }),
              checkout: checkout({}, { status: "requires_more" }),
            }),
            { kind: "answer", outcome: { kind: "processing", countryCode: "ca" } },
          ],
        ] as [string, LenderResultFacts, object, ApprovalRecord?][]
      ).map(
        // Every row four wide: jest would take a missing fourth for its `done` callback.
        ([name, given, expected, recordedAs]) => [name, given, expected, recordedAs ?? null] as const
      )
    )("%s", (_name, given, expected, recordedAs) => {
      expect(end(given, recordedAs ?? undefined)).toEqual(expected)
    })
  })

  describe("the record an approval is written as", () => {
    it("keeps the lender's figure normalized, the signed fields, and the channel it was verified under", () => {
      const action = decide(facts({ result: { ...facts().result, amount: "402.4" } }))
      expect(action).toMatchObject({
        kind: "approval",
        record: {
          contract: "51325",
          session_id: "payses_1",
          provider_id: "pp_paybright_paybright",
          cart_id: "cart_1",
          amount: "402.40",
          currency_code: "CAD",
          lender_result: FIELDS,
          orphan_reason: null,
          channel: inStore.channel,
          card_confirmed_at: null,
        },
      })
    })

    it("carries when its virtual card was retrieved, and the registration of its session", () => {
      const at = "2026-11-25T11:59:30.000Z"
      expect(
        decide(facts({ registrations: [virtualCard], signer: virtualCard, card: { retrieved: true, at } }))
      ).toMatchObject({
        record: { card_confirmed_at: at, channel: { capture_mode: "virtual_card", card_processor: "manual" } },
      })
      const fromSecond = facts({ signer: second, result: { ...facts().result, account_id: "key-2" } })
      expect(decide(fromSecond)).toMatchObject({ record: { provider_id: second.provider_id, cart_id: null } })
    })
  })

  describe("needs: which reads a delivery makes", () => {
    it.each(
      (
        [
          ["a first approval", facts({ checkout: undefined }), ["known", "checkout"]],
          ["a decline", facts({ outcome: "failed", checkout: undefined }), ["checkout"]],
          ["an unusable result", facts({ unusable: "test_mismatch", checkout: undefined }), ["known"]],
          [
            "a repeat of an order",
            facts({ known: row({ state: "ordered", order_id: "order_1" }), checkout: undefined }),
            ["known", "knownCountry"],
          ],
          [
            "a first virtual-card approval",
            facts({ signer: virtualCard, checkout: undefined }),
            ["known", "checkout", "card"],
          ],
          [
            "a repeat of a virtual-card approval",
            facts({ signer: virtualCard, known: row(), checkout: undefined }),
            ["known", "checkout"],
          ],
          [
            "an approval whose session is gone, with its token",
            facts({ checkout: undefined }),
            ["known", "checkout", "tokenCart"],
            { session_id: "payses_1" },
          ],
          ["a decline for its session", facts({ outcome: "failed" }), ["checkout", "sessionApproval"]],
          [
            "an approval whose cart has an order",
            facts({ checkout: checkout({ orderId: "order_9" }), completion_running: false }),
            ["known", "checkout", "completionRunning", "orderPayments"],
          ],
          [
            "an approval whose cart a completion holds",
            facts({ checkout: checkout({ orderId: "order_9" }), completion_running: true }),
            ["known", "checkout", "completionRunning"],
          ],
        ] as [string, LenderResultFacts, string[], { session_id: string }?][]
      ).map(([name, given, expected, token]) => [name, given, expected, token ?? null] as const)
    )("%s", (_name, given, expected, token) => {
      const all = {
        known: needs.known(given),
        knownCountry: needs.knownCountry(given),
        checkout: needs.checkout(given),
        card: needs.card(given),
        tokenCart: needs.tokenCart(given, token),
        sessionApproval: needs.sessionApproval(given),
        completionRunning: needs.completionRunning(given),
        orderPayments: needs.orderPayments(given),
      }
      expect(Object.keys(all).filter((name) => all[name as keyof typeof all])).toEqual(expected)
    })

    it("reads the return token's cart only for a gone session the token names", () => {
      expect(needs.tokenCart(facts({ checkout: undefined }), { session_id: "payses_1" })).toBe(true)
      expect(needs.tokenCart(facts({ checkout: undefined }), { session_id: "payses_2" })).toBe(false)
      expect(needs.tokenCart(facts({ checkout: undefined }), null)).toBe(false)
    })
  })

  describe("afterPlacement: the order the completion answered", () => {
    const place = { kind: "place" as const, approval_id: "apv_1", contract: "51325" }
    it.each<[string, { marked: boolean; contracts: string[] | null }, object]>([
      [
        "marked ordered: its order",
        { marked: true, contracts: ["51325"] },
        { kind: "answer", outcome: { kind: "placed", orderId: "order_1", countryCode: "ca" } },
      ],
      [
        "paid by another contract: a second contract",
        { marked: false, contracts: ["40000"] },
        { kind: "orphan", approval_id: "apv_1", reason: "second_contract" },
      ],
      [
        "paid by nothing yet: processing",
        { marked: false, contracts: [] },
        { kind: "answer", outcome: { kind: "processing", countryCode: "ca" } },
      ],
      [
        "its payments unread: processing",
        { marked: false, contracts: null },
        { kind: "answer", outcome: { kind: "processing", countryCode: "ca" } },
      ],
      [
        "its own contract, unmarked: marked now",
        { marked: false, contracts: ["51325"] },
        { kind: "mark_ordered", approval_id: "apv_1", order_id: "order_1" },
      ],
    ])("%s", (_name, placed, expected) => {
      expect(afterPlacement(place, { order_id: "order_1", ...placed }, "ca")).toEqual(expected)
    })
  })

  describe("placementFailureOf: a failed placement by its error's type", () => {
    it.each<[string, unknown, Partial<PlacementFailure>]>([
      [
        "a lock held elsewhere",
        new MedusaError(MedusaError.Types.CONFLICT, "cart_1 is held"),
        { busy: true, permanent: false },
      ],
      ["an order still being placed", { type: "conflict", message: "order_9 has no payment yet" }, { busy: true }],
      [
        "a cancelled payment",
        { type: "not_allowed", code: PAYMENT_CANCELLED, message: "cancelled" },
        { payment_cancelled: true, permanent: true },
      ],
      [
        "an approval no longer open",
        { type: "not_allowed", message: "PayBright contract 51325 is orphaned" },
        { payment_cancelled: false, permanent: true },
      ],
      [
        "Medusa refusing the cart",
        { type: "invalid_data", message: "out of stock" },
        { busy: false, permanent: true, message: "out of stock" },
      ],
      [
        "a provider refusing the authorization",
        { type: "not_allowed", message: "Session: payses_1 was not authorized with the provider." },
        { permanent: true },
      ],
      [
        "Medusa's authorization cut short (a write dropped)",
        { type: "payment_authorization_error", message: "Payment authorization failed" },
        { busy: false, permanent: false },
      ],
      [
        "a dropped connection",
        new Error("Connection terminated"),
        { busy: false, permanent: false, message: "Connection terminated" },
      ],
      ["nothing said", undefined, { permanent: false, message: "the cart could not be completed" }],
    ])("%s", (_name, error, expected) => {
      expect(placementFailureOf(error)).toMatchObject(expected)
    })
  })
})
