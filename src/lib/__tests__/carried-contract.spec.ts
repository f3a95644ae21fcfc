import {
  cancellationVoidPlan,
  carryPlan,
  capturedOnContract,
  replacedByOrderChange,
  type OrderCollectionRow,
} from "../carried-contract"

const contractData = (overrides: Record<string, unknown> = {}) => ({
  session_id: "payses_1",
  gateway_reference: "C1",
  amount: "779.70",
  currency: "CAD",
  test: true,
  capture_mode: "in_store",
  ...overrides,
})

describe("a cancellation Medusa makes after an order change", () => {
  it.each([
    // collection status, prepared by the merchant's cancel, already cancelled → replaced
    ["canceled", false, false, true],
    ["partially_captured", false, false, true],
    // An order cancel: the collection is still authorized when its payment is cancelled.
    ["authorized", false, false, false],
    ["authorized", true, false, false],
    // A cancel the merchant prepared is never an order change, whatever the status says.
    ["canceled", true, false, false],
    // A payment cancelled before: the contract lives in the payment it was carried into.
    ["canceled", false, true, false],
  ])("collection %s, prepared %s, cancelled before %s → replaced %s", (status, prepared, canceled, replaced) => {
    expect(replacedByOrderChange({ collectionStatus: status, prepared, alreadyCanceled: canceled })).toBe(replaced)
  })
})

describe("carrying a contract into the collection Medusa opened", () => {
  const approved = { contract: "C1", amount: "779.70" }
  const old = (captures: string[] = [], canceled = true): OrderCollectionRow => ({
    id: "pc_old",
    status: captures.length ? "partially_captured" : "canceled",
    amount: "779.699887",
    currency_code: "cad",
    payments: [
      {
        id: "pay_old",
        provider_id: "pp_paybright_paybright",
        amount: "779.699887",
        canceled_at: canceled ? "2026-11-27" : null,
        data: contractData(),
        captures: captures.map((amount) => ({ amount })),
      },
    ],
  })
  const live = (...collections: OrderCollectionRow[]) => ({ status: "pending", collections })
  const open = (amount: string, sessions: OrderCollectionRow["payment_sessions"] = []): OrderCollectionRow => ({
    id: "pc_new",
    status: "not_paid",
    amount,
    currency_code: "cad",
    payments: [],
    payment_sessions: sessions,
  })

  it("carries what the order owes, exactly, when the contract covers it", () => {
    const plan = carryPlan(live(old(), open("742.033258")), approved)
    expect(plan).toMatchObject({ carry: true, amount: "742.033258", uncovered: "0.00", collection: { id: "pc_new" } })
  })

  it("carries what the contract still covers, and says what it leaves uncovered", () => {
    const plan = carryPlan(live(old(["300.004"]), open("600.00")), approved)
    expect(capturedOnContract(old(["300.004"]).payments!, "C1")).toBe("300.00")
    expect(plan).toMatchObject({ carry: true, amount: "479.70", uncovered: "120.30" })
  })

  const session = (
    id: string,
    amount: string,
    data: Record<string, unknown>,
    provider_id = "pp_paybright_paybright"
  ) => ({
    id,
    provider_id,
    status: "pending",
    amount,
    data,
  })

  it("takes up the session an earlier carry opened for this contract and amount", () => {
    const plan = carryPlan(
      live(old(), open("100.004", [session("payses_2", "100", { carried_contract: "C1" })])),
      approved
    )
    expect(plan).toMatchObject({ carry: true, session_id: "payses_2", stray_session_ids: [] })
  })

  it.each([
    ["a shopper's application", session("payses_9", "100", { session_id: "payses_9" })],
    ["a carry's for another amount", session("payses_9", "99.99", { carried_contract: "C1" })],
    ["a carry's for another contract", session("payses_9", "100", { carried_contract: "C2" })],
    ["another PayBright registration's", session("payses_9", "100", { carried_contract: "C1" }, "pp_paybright_x")],
  ])("opens its own session and removes %s", (_, stray) => {
    const plan = carryPlan(live(old(), open("100", [stray])), approved)
    expect(plan).toMatchObject({ carry: true, session_id: undefined, stray_session_ids: ["payses_9"] })
  })

  it("leaves the sessions of other providers alone", () => {
    const stripe = session("payses_s", "100", {}, "pp_stripe_stripe")
    expect(carryPlan(live(old(), open("100", [stripe])), approved)).toMatchObject({ stray_session_ids: [] })
  })

  it.each([
    ["the contract is held by a live payment", live(old([], false), open("100"))],
    ["the order has no collection waiting for payment", live(old())],
    ["the contract is captured in full", live(old(["779.70"]), open("10"))],
    ["the order is cancelled", { status: "canceled", collections: [old(), open("100")] }],
  ])("carries nothing when %s", (why, order) => {
    expect(carryPlan(order, approved)).toEqual({ carry: false, why })
  })
})

describe("voiding a cancelled order's contract", () => {
  const payment = (captured: string[], canceled: boolean) => ({
    id: "pay_1",
    provider_id: "pp_paybright_paybright",
    amount: "779.70",
    canceled_at: canceled ? "2026-12-07" : null,
    data: contractData(),
    captures: captured.map((amount) => ({ amount })),
  })
  const cancelled = (captured: string[] = [], canceled = true) => ({
    status: "canceled",
    collections: [
      {
        id: "pc_1",
        status: "canceled",
        amount: "779.70",
        currency_code: "cad",
        payments: [payment(captured, canceled)],
      },
      { id: "pc_2", status: "canceled", amount: "700", currency_code: "cad", payments: [] },
    ],
  })
  const none = { voids: 0, open_captures: 0 }

  it("voids a contract no live payment holds, naming the payment it was last authorized on", () => {
    expect(cancellationVoidPlan(cancelled(), { contract: "C1" }, none)).toMatchObject({
      void: true,
      from: { id: "pay_1", data: { gateway_reference: "C1" } },
    })
  })

  it.each([
    ["the order is not cancelled", { ...cancelled(), status: "pending" }, none],
    ["no payment of the order was authorized on the contract", { status: "canceled", collections: [] }, none],
    ["a live payment holds the contract: Medusa's cancellation of it voids or refunds", cancelled([], false), none],
    ["the contract's void is recorded already", cancelled(), { voids: 1, open_captures: 0 }],
    ["a capture of the contract is running or in doubt", cancelled(), { voids: 0, open_captures: 1 }],
    ["the contract is partly captured: PayBright has no partial void", cancelled(["0.004", "0.003"]), none],
  ])("voids nothing when %s", (why, order, movements) => {
    expect(cancellationVoidPlan(order, { contract: "C1" }, movements)).toEqual({ void: false, why })
  })
})
