import { signFields } from "../../lender/signing"
import type { OrphanReason } from "../../modules/paybright/approval-reasons"
import { parseOptions } from "../../settings/options"
import type { ApprovalRecord, RecordApprovalInput } from "../../approvals/approval-record"
import type { Checkout } from "../../approvals/find-checkout"
import type { CheckoutCollaborators, Registration } from "../checkout-collaborators"
import { decideApplicationResult, type Delivery } from "../handle-application-result"
import type { PlaceOrderInput, PlaceOrderResult } from "../place-order"
import { supersedes } from "../../modules/paybright/approval-reasons"
import { returnToken } from "../return-token"

const TOKEN = "unit-test-token"
const NOW = Date.parse("2026-11-25T12:00:00Z")
const inStore: Registration = {
  providerId: "pp_paybright_paybright",
  options: parseOptions({
    apiKey: "key",
    apiToken: TOKEN,
    backendUrl: "https://api.shop.ca",
    storefrontUrl: "https://shop.ca",
  }),
}
const delivery: Delivery = { lockTimeoutSeconds: 15 }

/** A result as the lender signs it: approved for session payses_1, 402.40 CAD, in test mode. */
function signed(overrides: Record<string, string | undefined> = {}, token = TOKEN) {
  const fields: Record<string, string> = {
    x_account_id: "key",
    x_reference: "payses_1",
    x_currency: "CAD",
    x_test: "true",
    x_amount: "402.40",
    x_gateway_reference: "51325",
    x_timestamp: "2026-11-25T11:59:00Z",
    x_result: "Completed",
    x_transaction_type: "authorization",
  }
  for (const [name, value] of Object.entries(overrides)) {
    if (value === undefined) delete fields[name]
    else fields[name] = value
  }
  return signFields(fields, token)
}

/** The session payses_1 as Medusa keeps it: 402.4010025 CAD (a Quebec total), in a cart of Quebec. */
function checkout(overrides: Partial<Checkout> = {}): Checkout {
  return {
    session: {
      id: "payses_1",
      provider_id: inStore.providerId,
      amount: "402.4010025",
      currency_code: "cad",
      status: "pending",
      data: {},
      payment_collection_id: "paycol_1",
    },
    cartId: "cart_1",
    countryCode: "ca",
    ...overrides,
  }
}

type Fake = CheckoutCollaborators & {
  approvals: Map<string, ApprovalRecord>
  /** The noted calls' names, in order. */
  calls: string[]
  /** The arguments of each call of a noted collaborator, in order. */
  argsOf(name: string): unknown[][]
}

/** Collaborators with the same interface as Medusa's, over rows kept in memory; every call is noted. */
function collaborators(setup: {
  checkout?: Checkout
  cart?: { cartId?: string; amount?: unknown; countryCode?: string }
  payments?: { contract: string }[]
  /** Whether a completion holds the cart (another request is placing its order). */
  completionRunning?: boolean
  placed?: PlaceOrderResult
  awaited?: string
  notDecided?: string
  approvals?: ApprovalRecord[]
  registrations?: Registration[]
  /** When a virtual-card registration's card is retrieved; absent, it is not issued yet. */
  cardConfirmedAt?: string
}): Fake {
  const approvals = new Map((setup.approvals ?? []).map((row) => [row.id, row]))
  const calls: string[] = []
  const received: [string, unknown[]][] = []
  const noted =
    <A extends unknown[], R>(name: string, body: (...args: A) => R) =>
    (...args: A): R => {
      calls.push(name)
      received.push([name, args])
      return body(...args)
    }
  const change = (id: string, patch: Partial<ApprovalRecord>) => {
    const row = { ...approvals.get(id)!, ...patch } as ApprovalRecord
    approvals.set(id, row)
    return row
  }
  /** A contract's row as the module's recordVerifiedApproval leaves it: found on a repeat, else written. */
  const record = (input: RecordApprovalInput): ApprovalRecord => {
    const known = [...approvals.values()].find((row) => row.contract === input.contract)
    if (known && !supersedes(known as never, input)) return known
    const row = {
      id: known?.id ?? `apv_${approvals.size + 1}`,
      contract: input.contract,
      session_id: input.session_id,
      provider_id: input.provider_id,
      cart_id: input.cart_id,
      amount: input.amount,
      currency_code: input.currency_code,
      lender_result: input.lender_result,
      state: input.orphan_reason ? "orphaned" : "approved",
      reason: input.orphan_reason ?? null,
      order_id: null,
      created_at: new Date(NOW - 60_000),
    } as unknown as ApprovalRecord
    approvals.set(row.id, row)
    return row
  }
  return {
    approvals,
    calls,
    argsOf: (name) => received.filter(([called]) => called === name).map(([, args]) => args),
    logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
    providersInForce: async () => setup.registrations ?? [inStore],
    findCheckout: noted("findCheckout", async (sessionId: string) =>
      setup.checkout?.session.id === sessionId ? setup.checkout : undefined
    ),
    cartOfCollection: noted("cartOfCollection", async () => setup.cart ?? {}),
    countryOfCart: noted("countryOfCart", async () => setup.checkout?.countryCode),
    sessionHasApproval: noted("sessionHasApproval", async (sessionId: string) =>
      [...approvals.values()].some(
        (row) => row.session_id === sessionId && (row.state === "approved" || row.state === "ordered")
      )
    ),
    completionRunning: noted("completionRunning", async () => setup.completionRunning ?? false),
    orderPayments: noted("orderPayments", async () => setup.payments ?? []),
    // Noted only where a card is retrieved: an in-store registration has none.
    confirmCard: async (registration: Registration, contract: string) => {
      if (registration.options.captureMode !== "virtual_card") return undefined
      return noted("confirmCard", (_contract: string) =>
        setup.cardConfirmedAt ? { retrieved: true as const, at: setup.cardConfirmedAt } : { retrieved: false as const }
      )(contract)
    },
    approvalOfContract: async (contract: string) => [...approvals.values()].find((row) => row.contract === contract),
    recordApproval: noted("recordApproval", async (input: RecordApprovalInput) => record(input)),
    orphanApproval: noted("orphanApproval", async (id: string, reason: OrphanReason) =>
      change(id, { state: "orphaned", reason } as Partial<ApprovalRecord>)
    ),
    orphanUnplacedApproval: noted("orphanUnplacedApproval", async (input) =>
      setup.notDecided
        ? { notDecided: setup.notDecided }
        : {
            approval: change(input.approval_id, { state: "orphaned", reason: input.reason } as Partial<ApprovalRecord>),
          }
    ),
    markApprovalOrdered: noted("markApprovalOrdered", async (id: string, orderId: string) => {
      change(id, { state: "ordered", order_id: orderId } as Partial<ApprovalRecord>)
    }),
    recordResultOnSession: noted("recordResultOnSession", async () => undefined),
    // As placeApprovalWorkflow: the cart's lock first (held elsewhere, nothing is recorded), then
    // the record, the completion, and the mark when the order's payment is this contract.
    placeOrder: noted("placeOrder", async (input: PlaceOrderInput): Promise<PlaceOrderResult> => {
      const outcome = setup.placed ?? { placed: true, orderId: "order_1" }
      if (!outcome.placed && outcome.conflict) return outcome
      const approval = record(input.approval)
      if (approval.state !== "approved") {
        const message = `PayBright contract ${approval.contract} is ${approval.state}`
        return { placed: false, conflict: false, cardPending: false, permanent: true, message }
      }
      if (!outcome.placed) return outcome
      const marked = (setup.payments ?? []).some((payment) => payment.contract === approval.contract)
      const row = marked ? change(approval.id, { state: "ordered", order_id: outcome.orderId }) : approval
      return { ...outcome, approval: row, marked }
    }),
    awaitOrder: noted("awaitOrder", async () => setup.awaited),
    now: () => NOW,
  }
}

function approvalRow(patch: Partial<Record<string, unknown>>): ApprovalRecord {
  return {
    id: "apv_known",
    contract: "51325",
    session_id: "payses_1",
    provider_id: inStore.providerId,
    cart_id: "cart_1",
    state: "approved",
    reason: null,
    order_id: null,
    created_at: new Date(NOW - 60_000),
    ...patch,
  } as unknown as ApprovalRecord
}

describe("the checkout decision", () => {
  describe("before anything is looked up", () => {
    it("rejects what carries no signed result with 400", async () => {
      const fake = collaborators({ checkout: checkout() })
      expect((await decideApplicationResult(fake, { hello: "world" }, delivery)).outcome).toEqual({
        kind: "rejected",
        status: 400,
        reason: "no signed PayBright result",
      })
      expect((await decideApplicationResult(fake, signed({ x_reference: undefined }), delivery)).outcome).toMatchObject(
        {
          kind: "rejected",
          status: 400,
        }
      )
      expect(fake.calls).toEqual([])
    })

    it("rejects a signature that does not verify with 401, and one of another account's token", async () => {
      const fake = collaborators({ checkout: checkout() })
      const forged = { ...signed(), x_amount: "1.00" }
      expect((await decideApplicationResult(fake, forged, delivery)).outcome).toMatchObject({
        kind: "rejected",
        status: 401,
      })
      const otherAccount = signed({ x_account_id: "someone-else" })
      expect((await decideApplicationResult(fake, otherAccount, delivery)).outcome).toMatchObject({
        kind: "rejected",
        status: 401,
        reason: "the signature does not verify (reference payses_1)",
      })
      expect(fake.calls).toEqual([])
    })

    it("acknowledges the lender's copy of an order-management result and does nothing else", async () => {
      const fake = collaborators({ checkout: checkout() })
      const voided = signed({ x_transaction_type: "void", x_result: "completed" })
      const handled = await decideApplicationResult(fake, voided, delivery)
      expect(handled.outcome).toEqual({ kind: "acknowledged" })
      expect(handled.options?.apiKey).toBe("key")
      expect(fake.calls).toEqual([])
    })

    it("rejects signed fields that are incomplete with 400", async () => {
      const fake = collaborators({ checkout: checkout() })
      expect((await decideApplicationResult(fake, signed({ x_timestamp: undefined }), delivery)).outcome).toEqual({
        kind: "rejected",
        status: 400,
        reason: "signed fields are incomplete (x_timestamp)",
      })
      expect(fake.calls).toEqual([])
    })
  })

  describe("a signed result the store cannot use", () => {
    it.each([
      ["request_fields", { x_url_callback: "https://attacker.example" }],
      ["test_mismatch", { x_test: "false" }],
      ["unknown_result", { x_result: "Maybe" }],
    ])("is recorded as an orphan (%s), never an order", async (reason, overrides) => {
      const fake = collaborators({ checkout: checkout() })
      const handled = await decideApplicationResult(fake, signed(overrides), delivery)
      expect(handled.outcome).toEqual({ kind: "orphaned", reason, countryCode: undefined })
      expect(fake.calls).toEqual(["recordApproval"])
      expect([...fake.approvals.values()][0]).toMatchObject({ contract: "51325", state: "orphaned", reason })
    })
  })

  describe("a decline or a pending application", () => {
    it.each([
      ["Failed", "declined"],
      ["Pending", "pending"],
    ])("is handed to its session when the session matches (%s)", async (result, kind) => {
      const fake = collaborators({ checkout: checkout() })
      const fields = signed({ x_result: result })
      const handled = await decideApplicationResult(fake, fields, delivery)
      expect(handled.outcome).toEqual({ kind, countryCode: "ca" })
      expect(fake.calls).toEqual(["findCheckout", "sessionHasApproval", "recordResultOnSession"])
      expect(fake.argsOf("recordResultOnSession")).toEqual([["payses_1", fields]])
    })

    it("is not written over a session that holds an approval or is authorized", async () => {
      // A row of another contract, approved for this session.
      const approved = collaborators({ checkout: checkout(), approvals: [approvalRow({ contract: "40000" })] })
      const authorized = collaborators({
        checkout: checkout({ session: { ...checkout().session, status: "authorized" } }),
      })
      for (const fake of [approved, authorized]) {
        const handled = await decideApplicationResult(fake, signed({ x_result: "Failed" }), delivery)
        expect(handled.outcome).toEqual({ kind: "declined", countryCode: "ca" })
        expect(fake.calls).not.toContain("recordResultOnSession")
      }
    })

    it("is answered without a session, and left alone when the cart changed", async () => {
      const gone = collaborators({})
      expect((await decideApplicationResult(gone, signed({ x_result: "Pending" }), delivery)).outcome).toEqual({
        kind: "pending",
      })
      const changed = collaborators({ checkout: checkout() })
      const outcome = (
        await decideApplicationResult(changed, signed({ x_result: "Pending", x_amount: "1.00" }), delivery)
      ).outcome
      expect(outcome).toEqual({ kind: "pending", countryCode: "ca" })
      expect([...gone.calls, ...changed.calls]).toEqual(["findCheckout", "findCheckout"])
    })
  })

  describe("an approval without its session", () => {
    it("is an orphan whose session was replaced", async () => {
      const fake = collaborators({})
      const handled = await decideApplicationResult(fake, signed(), delivery)
      expect(handled.outcome).toEqual({ kind: "orphaned", reason: "session_replaced", countryCode: undefined })
      expect(fake.calls).toEqual(["findCheckout", "recordApproval"])
    })

    it("is an orphan of a changed cart when its return token leads to a cart of another amount", async () => {
      const fake = collaborators({ cart: { cartId: "cart_1", amount: "500", countryCode: "ca" } })
      const handled = await decideApplicationResult(fake, signed(), {
        ...delivery,
        returnToken: returnToken(TOKEN, "payses_1", "paycol_1"),
      })
      expect(handled.outcome).toEqual({ kind: "orphaned", reason: "cart_changed", countryCode: "ca" })
      expect(fake.calls).toEqual(["findCheckout", "cartOfCollection", "recordApproval"])
      expect(fake.argsOf("cartOfCollection")).toEqual([["paycol_1"]])
      expect(fake.argsOf("recordApproval")[0][0]).toMatchObject({ cart_id: "cart_1", orphan_reason: "cart_changed" })
    })

    it("is an orphan whose session was replaced when the cart still has the amount", async () => {
      const fake = collaborators({ cart: { cartId: "cart_1", amount: "402.4010025", countryCode: "ca" } })
      const handled = await decideApplicationResult(fake, signed(), {
        ...delivery,
        returnToken: returnToken(TOKEN, "payses_1", "paycol_1"),
      })
      expect(handled.outcome).toEqual({ kind: "orphaned", reason: "session_replaced", countryCode: "ca" })
      expect(fake.argsOf("recordApproval")[0][0]).toMatchObject({
        cart_id: "cart_1",
        orphan_reason: "session_replaced",
      })
    })

    it("reads no cart through a return token of another session or another store", async () => {
      for (const token of [
        returnToken(TOKEN, "payses_2", "paycol_2"),
        returnToken("other-token", "payses_1", "paycol_1"),
      ]) {
        const fake = collaborators({ cart: { cartId: "cart_1", amount: "500", countryCode: "ca" } })
        const handled = await decideApplicationResult(fake, signed(), { ...delivery, returnToken: token })
        expect(handled.outcome).toEqual({ kind: "orphaned", reason: "session_replaced", countryCode: undefined })
        expect(fake.calls).toEqual(["findCheckout", "recordApproval"])
        expect(fake.argsOf("recordApproval")[0][0]).toMatchObject({ cart_id: null })
      }
    })

    it("orphans an approval recorded while its session lived", async () => {
      const fake = collaborators({ approvals: [approvalRow({})] })
      const handled = await decideApplicationResult(fake, signed(), delivery)
      expect(handled.outcome).toEqual({ kind: "orphaned", reason: "session_replaced", countryCode: undefined })
      expect(fake.calls).toEqual(["findCheckout", "orphanApproval"])
    })
  })

  describe("an approval for its session", () => {
    it("places the order and marks the approval ordered", async () => {
      const fake = collaborators({ checkout: checkout(), payments: [{ contract: "51325" }] })
      const handled = await decideApplicationResult(fake, signed(), delivery)
      expect(handled.outcome).toEqual({ kind: "placed", orderId: "order_1", countryCode: "ca" })
      // One workflow records the approval, completes the cart and marks the approval ordered.
      expect(fake.calls).toEqual(["findCheckout", "placeOrder"])
      expect(fake.approvals.get("apv_1")).toMatchObject({ state: "ordered", order_id: "order_1" })
      // The lender's figure as the lender wrote it, normalized; the signed fields kept to deliver again.
      expect(fake.argsOf("placeOrder")).toEqual([
        [
          {
            cartId: "cart_1",
            paymentCollectionId: "paycol_1",
            lockTimeoutSeconds: 15,
            approval: {
              contract: "51325",
              session_id: "payses_1",
              provider_id: "pp_paybright_paybright",
              cart_id: "cart_1",
              amount: "402.40",
              currency_code: "CAD",
              lender_result: signed(),
              orphan_reason: null,
              // The channel it was verified under, which its release goes through.
              channel: { capture_mode: "in_store", card_processor: null, environment: "sandbox", account_id: "key" },
              // In-store: no card proves it.
              card_confirmed_at: null,
            },
          },
        ],
      ])
    })

    it("is a second contract when the cart's completion answers an order another contract pays", async () => {
      // A cart completed earlier answers its order again: the placement leaves the approval unmarked.
      const fake = collaborators({ checkout: checkout(), payments: [{ contract: "40000" }] })
      const handled = await decideApplicationResult(fake, signed(), delivery)
      expect(handled.outcome).toEqual({ kind: "orphaned", reason: "second_contract", countryCode: "ca" })
      expect(fake.calls).toEqual(["findCheckout", "placeOrder", "orderPayments", "orphanApproval"])
      expect(fake.approvals.get("apv_1")).toMatchObject({ state: "orphaned", order_id: null })
    })

    it("is an orphan of a changed cart when the amount differs from the session's", async () => {
      const fake = collaborators({ checkout: checkout() })
      const handled = await decideApplicationResult(fake, signed({ x_amount: "402.41" }), delivery)
      expect(handled.outcome).toEqual({ kind: "orphaned", reason: "cart_changed", countryCode: "ca" })
      expect(fake.calls).toEqual(["findCheckout", "recordApproval"])
    })

    it("is an orphan when the account captures at once and the store captures at shipment", async () => {
      const fake = collaborators({ checkout: checkout() })
      const handled = await decideApplicationResult(fake, signed({ x_transaction_type: undefined }), delivery)
      expect(handled.outcome).toEqual({ kind: "orphaned", reason: "auto_capture_account", countryCode: "ca" })
      expect(fake.calls).toEqual(["findCheckout", "recordApproval"])
    })

    it("is an orphan when the session has no cart to complete", async () => {
      const fake = collaborators({ checkout: checkout({ cartId: undefined }) })
      const handled = await decideApplicationResult(fake, signed(), delivery)
      expect(handled.outcome).toEqual({ kind: "orphaned", reason: "completion_failed", countryCode: "ca" })
      expect(fake.calls).toEqual(["findCheckout", "recordApproval"])
    })
  })

  describe("a virtual-card approval", () => {
    const virtualCard: Registration = {
      providerId: inStore.providerId,
      options: parseOptions({ ...inStore.options, captureMode: "virtual_card", cardProcessor: { type: "manual" } }),
    }
    const confirmedAt = "2026-11-25T11:59:30.000Z"

    it("is recorded with its card retrieved before the cart's completion", async () => {
      const fake = collaborators({
        registrations: [virtualCard],
        checkout: checkout(),
        payments: [{ contract: "51325" }],
        cardConfirmedAt: confirmedAt,
      })
      const handled = await decideApplicationResult(fake, signed(), delivery)
      expect(handled.outcome).toEqual({ kind: "placed", orderId: "order_1", countryCode: "ca" })
      expect((fake.argsOf("placeOrder")[0][0] as PlaceOrderInput).approval).toMatchObject({
        card_confirmed_at: confirmedAt,
        channel: { capture_mode: "virtual_card", card_processor: "manual" },
      })
    })

    it("leaves the cart alone while the card is not issued: the approval is recorded and waits for it", async () => {
      const fake = collaborators({ registrations: [virtualCard], checkout: checkout() })
      const handled = await decideApplicationResult(fake, signed(), delivery)
      expect(handled.outcome).toEqual({ kind: "processing", countryCode: "ca" })
      expect(fake.calls).toEqual(["confirmCard", "findCheckout", "recordApproval"])
      expect(fake.argsOf("recordApproval")[0][0]).toMatchObject({ orphan_reason: null, card_confirmed_at: null })
    })

    it("retrieves no card on a repeat: the cart's completion does, under its lock", async () => {
      const fake = collaborators({
        registrations: [virtualCard],
        checkout: checkout(),
        approvals: [approvalRow({ state: "approved" })],
        payments: [{ contract: "51325" }],
        cardConfirmedAt: confirmedAt,
      })
      await decideApplicationResult(fake, signed(), delivery)
      expect(fake.calls).toEqual(["findCheckout", "placeOrder"])
      expect((fake.argsOf("placeOrder")[0][0] as PlaceOrderInput).approval.card_confirmed_at).toBeNull()
    })
  })

  describe("two registrations in force", () => {
    const second: Registration = {
      providerId: "pp_paybright_second",
      options: parseOptions({
        apiKey: "key-2",
        apiToken: "second-token",
        backendUrl: "https://api.shop.ca",
        storefrontUrl: "https://shop.ca",
      }),
    }
    const fromSecond = () => signed({ x_account_id: "key-2" }, "second-token")

    it("decides with the registration whose token signed the result", async () => {
      const fake = collaborators({
        registrations: [inStore, second],
        checkout: checkout({ session: { ...checkout().session, provider_id: second.providerId } }),
        payments: [{ contract: "51325" }],
      })
      const handled = await decideApplicationResult(fake, fromSecond(), delivery)
      expect(handled.outcome).toEqual({ kind: "placed", orderId: "order_1", countryCode: "ca" })
      expect(handled.options?.apiKey).toBe("key-2")
      expect((fake.argsOf("placeOrder")[0][0] as PlaceOrderInput).approval).toMatchObject({
        provider_id: second.providerId,
        orphan_reason: null,
      })
    })

    it("never places a result on a session of another account: it is an orphan of its own", async () => {
      const fake = collaborators({ registrations: [inStore, second], checkout: checkout() })
      const handled = await decideApplicationResult(fake, fromSecond(), delivery)
      expect(handled.outcome).toEqual({ kind: "orphaned", reason: "session_replaced", countryCode: undefined })
      expect(fake.calls).toEqual(["findCheckout", "recordApproval"])
      expect(fake.argsOf("recordApproval")[0][0]).toMatchObject({ provider_id: second.providerId })
    })
  })

  describe("a cart that already has an order", () => {
    it("is this approval's order when a payment holds the contract", async () => {
      const fake = collaborators({ checkout: checkout({ orderId: "order_9" }), payments: [{ contract: "51325" }] })
      const handled = await decideApplicationResult(fake, signed(), delivery)
      expect(handled.outcome).toEqual({ kind: "placed", orderId: "order_9", countryCode: "ca" })
      expect(fake.calls).not.toContain("placeOrder")
    })

    it("waits for the cart, not for the order it reads, while a completion holds the cart", async () => {
      // That completion may still fail and Medusa undo the order: placeOrder waits for the cart and
      // answers the order that stands then.
      const fake = collaborators({
        checkout: checkout({ orderId: "order_9" }),
        payments: [{ contract: "51325" }],
        completionRunning: true,
        placed: { placed: true, orderId: "order_10" },
      })
      const handled = await decideApplicationResult(fake, signed(), delivery)
      expect(handled.outcome).toEqual({ kind: "placed", orderId: "order_10", countryCode: "ca" })
      expect(fake.calls).toEqual(["findCheckout", "completionRunning", "placeOrder"])
      expect(fake.approvals.get("apv_1")).toMatchObject({ state: "ordered", order_id: "order_10" })
    })

    it("makes this approval a second contract when another pays the order", async () => {
      const fake = collaborators({ checkout: checkout({ orderId: "order_9" }), payments: [{ contract: "40000" }] })
      const handled = await decideApplicationResult(fake, signed(), delivery)
      expect(handled.outcome).toEqual({ kind: "orphaned", reason: "second_contract", countryCode: "ca" })
    })

    it("asks to place the order while it has no payment, and answers processing while another request holds the cart", async () => {
      const fake = collaborators({
        checkout: checkout({ orderId: "order_9" }),
        payments: [],
        placed: { placed: false, conflict: true },
      })
      const handled = await decideApplicationResult(fake, signed(), delivery)
      expect(handled.outcome).toEqual({ kind: "processing", countryCode: "ca" })
      expect(fake.approvals.get("apv_1")).toMatchObject({ state: "approved" })
      expect(fake.calls).toEqual(["findCheckout", "completionRunning", "recordApproval", "orderPayments", "placeOrder"])
    })

    it("places the order when a completion cut short left the cart's order without its payment", async () => {
      const fake = collaborators({ checkout: checkout({ orderId: "order_9" }), payments: [] })
      fake.placeOrder = async () => {
        fake.calls.push("placeOrder")
        fake.orderPayments = async () => [{ contract: "51325" }]
        return { placed: true, orderId: "order_10" }
      }
      const handled = await decideApplicationResult(fake, signed(), delivery)
      expect(handled.outcome).toEqual({ kind: "placed", orderId: "order_10", countryCode: "ca" })
      expect(fake.argsOf("markApprovalOrdered")).toEqual([["apv_1", "order_10"]])
    })

    it("waits for the payment of an order another request is placing, on a delivery that may wait", async () => {
      const fake = collaborators({
        checkout: checkout({ orderId: "order_9" }),
        payments: [],
        placed: { placed: false, conflict: true },
      })
      fake.awaitOrder = async () => {
        fake.calls.push("awaitOrder")
        fake.orderPayments = async () => [{ contract: "51325" }]
        return "order_9"
      }
      const handled = await decideApplicationResult(fake, signed(), { ...delivery, waitForOrderMs: 10_000 })
      expect(handled.outcome).toEqual({ kind: "placed", orderId: "order_9", countryCode: "ca" })
      expect(fake.calls).toEqual([
        "findCheckout",
        "completionRunning",
        "recordApproval",
        "orderPayments",
        "placeOrder",
        "awaitOrder",
        "markApprovalOrdered",
      ])
    })
  })

  describe("a completion another request is running", () => {
    it("answers processing to the lender, who delivers again", async () => {
      const fake = collaborators({ checkout: checkout(), placed: { placed: false, conflict: true } })
      const handled = await decideApplicationResult(fake, signed(), delivery)
      expect(handled.outcome).toEqual({ kind: "processing", countryCode: "ca" })
      // The cart's lock comes first in the placement: held elsewhere, the approval is recorded apart.
      expect(fake.calls).toEqual(["findCheckout", "placeOrder", "recordApproval"])
      expect(fake.approvals.get("apv_1")).toMatchObject({ state: "approved" })
    })

    it("answers processing when the wait for that order runs out", async () => {
      const fake = collaborators({ checkout: checkout(), placed: { placed: false, conflict: true } })
      const handled = await decideApplicationResult(fake, signed(), { ...delivery, waitForOrderMs: 5_000 })
      expect(handled.outcome).toEqual({ kind: "processing", countryCode: "ca" })
      expect(fake.argsOf("awaitOrder")).toEqual([[{ cartId: "cart_1", paymentCollectionId: "paycol_1" }, 5_000]])
    })

    it("waits for that order on the shopper's return", async () => {
      const fake = collaborators({
        checkout: checkout(),
        placed: { placed: false, conflict: true },
        awaited: "order_2",
        payments: [{ contract: "51325" }],
      })
      const handled = await decideApplicationResult(fake, signed(), { ...delivery, waitForOrderMs: 5_000 })
      expect(handled.outcome).toEqual({ kind: "placed", orderId: "order_2", countryCode: "ca" })
      expect(fake.argsOf("markApprovalOrdered")).toEqual([["apv_1", "order_2"]])
    })
  })

  describe("a completion that failed", () => {
    const failed = (
      patch: Partial<{ cardPending: boolean; permanent: boolean; message: string }>
    ): PlaceOrderResult => ({
      placed: false,
      conflict: false,
      cardPending: false,
      permanent: false,
      message: "the cart could not be completed",
      ...patch,
    })

    it("waits within the grace period for a late virtual card", async () => {
      const fake = collaborators({ checkout: checkout(), placed: failed({ cardPending: true }) })
      const handled = await decideApplicationResult(fake, signed(), delivery)
      expect(handled.outcome).toEqual({ kind: "processing", countryCode: "ca" })
      expect(fake.calls).not.toContain("orphanUnplacedApproval")
    })

    it("tries again within the grace period after a passing failure", async () => {
      const fake = collaborators({ checkout: checkout(), placed: failed({}) })
      const handled = await decideApplicationResult(fake, signed(), delivery)
      expect(handled.outcome).toEqual({ kind: "processing", countryCode: "ca" })
      expect(fake.calls).toEqual(["findCheckout", "placeOrder"])
      expect(fake.approvals.get("apv_1")).toMatchObject({ state: "approved" })
    })

    it("makes an orphan at once when Medusa refused the cart itself", async () => {
      const fake = collaborators({ checkout: checkout(), placed: failed({ permanent: true }) })
      const handled = await decideApplicationResult(fake, signed(), delivery)
      expect(handled.outcome).toEqual({ kind: "orphaned", reason: "completion_failed", countryCode: "ca" })
      expect(fake.argsOf("orphanUnplacedApproval")).toEqual([
        [
          {
            approval_id: "apv_1",
            cart_id: "cart_1",
            session_id: "payses_1",
            reason: "completion_failed",
            placement_error: null,
            lock_timeout: 15,
          },
        ],
      ])
    })

    it("keeps for a person, with its last answer, an approval whose passing failures outlast the grace period", async () => {
      const fake = collaborators({
        checkout: checkout(),
        placed: failed({ message: "Timed-out acquiring lock." }),
        approvals: [approvalRow({ created_at: new Date(NOW - 11 * 60_000) })],
      })
      const handled = await decideApplicationResult(fake, signed(), delivery)
      expect(handled.outcome).toEqual({ kind: "orphaned", reason: "not_placed", countryCode: "ca" })
      expect(fake.calls).toEqual(["findCheckout", "placeOrder", "orphanUnplacedApproval"])
      expect(fake.argsOf("orphanUnplacedApproval")[0][0]).toMatchObject({
        reason: "not_placed",
        placement_error: "Timed-out acquiring lock.",
      })
      expect(fake.approvals.get("apv_known")).toMatchObject({ state: "orphaned", reason: "not_placed" })
    })

    it("makes an orphan once the grace period is over without a card", async () => {
      const fake = collaborators({
        checkout: checkout(),
        placed: failed({ cardPending: true }),
        approvals: [approvalRow({ created_at: new Date(NOW - 3 * 60 * 60_000) })],
      })
      const handled = await decideApplicationResult(fake, signed(), delivery)
      expect(handled.outcome).toEqual({ kind: "orphaned", reason: "card_unavailable", countryCode: "ca" })
      expect(fake.argsOf("orphanUnplacedApproval")[0][0]).toMatchObject({
        approval_id: "apv_known",
        reason: "card_unavailable",
      })
    })

    it("leaves it to the next delivery when the cart's lock is held elsewhere", async () => {
      const fake = collaborators({
        checkout: checkout(),
        placed: failed({ permanent: true }),
        notDecided: "Timed-out acquiring lock.",
      })
      const handled = await decideApplicationResult(fake, signed(), delivery)
      expect(handled.outcome).toEqual({ kind: "processing", countryCode: "ca" })
      expect(fake.calls).toEqual(["findCheckout", "placeOrder", "orphanUnplacedApproval"])
      expect(fake.approvals.get("apv_1")).toMatchObject({ state: "approved" })
    })
  })

  describe("a repeated delivery", () => {
    it("of an order is answered from the approval's row and the cart's country alone", async () => {
      const fake = collaborators({
        checkout: checkout({ orderId: "order_1" }),
        approvals: [approvalRow({ state: "ordered", order_id: "order_1" })],
      })
      const handled = await decideApplicationResult(fake, signed(), delivery)
      expect(handled.outcome).toEqual({ kind: "placed", orderId: "order_1", countryCode: "ca" })
      expect(fake.calls).toEqual(["countryOfCart"])
      expect(fake.argsOf("countryOfCart")).toEqual([["cart_1"]])
    })

    it("is not answered from a row of another session or registration", async () => {
      for (const row of [{ session_id: "payses_2" }, { provider_id: "pp_paybright_other" }]) {
        const fake = collaborators({
          checkout: checkout({ orderId: "order_1" }),
          approvals: [approvalRow({ state: "ordered", order_id: "order_1", ...row })],
        })
        await decideApplicationResult(fake, signed(), delivery)
        expect(fake.calls[0]).toBe("findCheckout")
      }
    })

    it("of an orphan is answered from its row, without orphaning it again", async () => {
      const fake = collaborators({
        checkout: checkout(),
        approvals: [approvalRow({ state: "orphaned", reason: "completion_failed" })],
      })
      const handled = await decideApplicationResult(fake, signed(), delivery)
      expect(handled.outcome).toEqual({ kind: "orphaned", reason: "completion_failed", countryCode: "ca" })
      expect(fake.calls).toEqual(["findCheckout"])
    })

    it("records a usable result over an unusable one recorded before", async () => {
      const fake = collaborators({
        checkout: checkout(),
        payments: [{ contract: "51325" }],
        approvals: [approvalRow({ state: "orphaned", reason: "test_mismatch" })],
      })
      const handled = await decideApplicationResult(fake, signed(), delivery)
      expect(handled.outcome).toEqual({ kind: "placed", orderId: "order_1", countryCode: "ca" })
      expect(fake.calls).toEqual(["findCheckout", "placeOrder"])
      expect(fake.approvals.get("apv_known")).toMatchObject({ state: "ordered", reason: null })
    })

    it("follows what another delivery decided meanwhile", async () => {
      const fake = collaborators({ checkout: checkout(), approvals: [approvalRow({})] })
      fake.placeOrder = async () => {
        fake.approvals.set("apv_known", {
          ...fake.approvals.get("apv_known")!,
          state: "ordered",
          order_id: "order_3",
        } as ApprovalRecord)
        return { placed: false, conflict: false, cardPending: false, permanent: false, message: "completed elsewhere" }
      }
      const handled = await decideApplicationResult(fake, signed(), delivery)
      expect(handled.outcome).toEqual({ kind: "placed", orderId: "order_3", countryCode: "ca" })
      expect(fake.calls).not.toContain("orphanUnplacedApproval")
    })
  })
})
