import { owedAuthorizations } from "../collection-authorization"
import type { OrderCollectionRow } from "../carried-contract"

const payment = (amount: string, overrides: Record<string, unknown> = {}) => ({
  id: `pay_${amount}`,
  provider_id: "pp_paybright_paybright",
  amount,
  data: {},
  ...overrides,
})
const collection = (status: string, amount: string, payments: ReturnType<typeof payment>[]): OrderCollectionRow => ({
  id: "paycol_1",
  status,
  amount,
  currency_code: "cad",
  payments,
})

describe("the status Medusa owes a placed order's collection", () => {
  it.each([
    // status, collection amount, payments, owed
    ["not_paid", "402.4010", [payment("402.4010")], "authorized"],
    ["awaiting", "402.4010", [payment("402.4010")], "authorized"],
    // Compared in cents, as Medusa compares in the currency's precision.
    ["not_paid", "402.4049", [payment("402.40")], "authorized"],
    ["not_paid", "500.00", [payment("402.40")], "partially_authorized"],
    // Already written: nothing owed.
    ["authorized", "402.40", [payment("402.40")], undefined],
    ["completed", "402.40", [payment("402.40")], undefined],
    ["canceled", "402.40", [payment("402.40")], undefined],
    // No standing PayBright payment: nothing to say for it.
    ["not_paid", "402.40", [payment("402.40", { canceled_at: "2026-12-01" })], undefined],
    ["not_paid", "402.40", [payment("402.40", { provider_id: "pp_system_default" })], undefined],
    ["not_paid", "402.40", [], undefined],
  ])("%s for %s, paid by %j: %s", (status, amount, payments, owed) => {
    const found = owedAuthorizations([collection(status, amount, payments)])
    expect(found).toEqual(owed ? [{ collection_id: "paycol_1", from: status, status: owed }] : [])
  })
})
