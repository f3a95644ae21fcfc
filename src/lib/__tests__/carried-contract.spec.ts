import { carryPlan, capturedOnContract, replacedByOrderChange, type OrderCollectionRow } from "../carried-contract"

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
  const open = (amount: string, sessions: OrderCollectionRow["payment_sessions"] = []): OrderCollectionRow => ({
    id: "pc_new",
    status: "not_paid",
    amount,
    currency_code: "cad",
    payments: [],
    payment_sessions: sessions,
  })

  it("carries what the order owes, exactly, when the contract covers it", () => {
    const plan = carryPlan([old(), open("742.033258")], approved)
    expect(plan).toMatchObject({ carry: true, amount: "742.033258", uncovered: "0.00", collection: { id: "pc_new" } })
  })

  it("carries what the contract still covers, and says what it leaves uncovered", () => {
    const plan = carryPlan([old(["300.004"]), open("600.00")], approved)
    expect(capturedOnContract(old(["300.004"]).payments!, "C1")).toBe("300.00")
    expect(plan).toMatchObject({ carry: true, amount: "479.70", uncovered: "120.30" })
  })

  it("takes up the session an earlier attempt opened", () => {
    const plan = carryPlan(
      [old(), open("100", [{ id: "payses_2", provider_id: "pp_paybright_paybright", status: "pending" }])],
      approved
    )
    expect(plan).toMatchObject({ carry: true, session_id: "payses_2" })
  })

  it.each([
    ["the contract is held by a live payment", [old([], false), open("100")]],
    ["the order has no collection waiting for payment", [old()]],
    ["the contract is captured in full", [old(["779.70"]), open("10")]],
  ])("carries nothing when %s", (why, collections) => {
    expect(carryPlan(collections as OrderCollectionRow[], approved)).toEqual({ carry: false, why })
  })
})
