import { lenderAmount } from "../../src/money/lender-cents"
import { MathBN } from "@medusajs/framework/utils"
import type { PayBrightAttentionItem } from "../../src/types/admin"
import {
  approvalOfContract,
  contractOf,
  medusaCents,
  orderOf,
  recordsOfContract,
  type Checkout,
  type Model,
  type World,
} from "./world"

/** A broken promise, with the checkout it concerns, as the model prints it. */
export type Violation = { invariant: "I1" | "I2" | "I3" | "I4" | "I5"; checkout: number; detail: string }

/**
 * What must hold after every command of a sequence, read from the simulator's books, Medusa's and
 * the plugin's records (`final`: once the lender has delivered every result and the jobs have run
 * past every grace period, so every approval must have ended):
 * - I1: the lender's captured and refunded totals equal Medusa's, or a record in doubt names the
 *   difference, or needs attention lists the contract;
 * - I2: no order stands on a voided contract or on a cancelled payment, unless needs attention
 *   lists the contract;
 * - I3: no movement made twice at the lender: each lender capture or refund has its own record,
 *   done or in doubt;
 * - I4 (final): every approval ended in an order holding its contract, a released contract, or an
 *   entry of needs attention;
 * - I5: a contract is voided only with nothing captured; and with no parcel packed or shipped and
 *   no capture pressed by the merchant, nothing is captured.
 */
export async function violations(world: World, model: Model, final: boolean): Promise<Violation[]> {
  const found: Violation[] = []
  const { data } = await world.api.get("/admin/paybright/attention", world.admin)
  const listed = new Set((data.items as PayBrightAttentionItem[]).map((item) => item.contract).filter(Boolean))
  for (const [index, checkout] of model.checkouts.entries()) {
    found.push(...(await checkoutViolations(world, checkout, index, listed, final)))
  }
  return found
}

async function checkoutViolations(
  world: World,
  checkout: Checkout,
  index: number,
  listed: Set<string | null>,
  final: boolean
): Promise<Violation[]> {
  const lender = contractOf(world, checkout)
  if (!lender || !checkout.contract) return []
  const contract = checkout.contract
  const found: Violation[] = []
  const fail = (invariant: Violation["invariant"], detail: string) => found.push({ invariant, checkout: index, detail })
  const placed = await orderOf(world, checkout)
  const records = await recordsOfContract(world, contract)
  const inDoubt = records.filter((record) => record.state === "in_doubt")
  // A movement still under way (its subscriber started after the command was answered) explains a
  // gap for now; once the day is over, nothing may be.
  const underWay = !final && records.some((record) => record.state === "pending")
  const attention = listed.has(contract)

  // I1
  if (placed?.payment) {
    const medusa = medusaCents(placed.payment)
    for (const kind of ["captured", "refunded"] as const) {
      const gap = MathBN.sub(lender[kind], medusa[kind]).abs()
      const named = inDoubt.some((record) => lenderAmount(record.amount as never) === lenderAmount(gap as never))
      if (!MathBN.eq(gap, 0) && !named && !attention && !underWay) {
        fail("I1", `lender ${kind} ${lender[kind]}, Medusa ${medusa[kind]}, nothing in doubt names it`)
      }
    }
  } else if (!MathBN.eq(lender.captured, 0) && !attention) {
    fail("I1", `the lender captured ${lender.captured} of a contract no Medusa payment carries`)
  }

  // I2
  const standing = placed && placed.order.status !== "canceled" && !placed.order.canceled_at
  if (standing && !attention) {
    if (lender.status === "VOIDED") fail("I2", `order ${placed.order.id} stands on voided contract ${contract}`)
    if (placed.payment?.canceled_at) fail("I2", `order ${placed.order.id} stands on a cancelled payment`)
  }

  // I3
  for (const [kind, made] of [
    ["capture", lender.captures.length],
    ["refund", lender.refunds.length],
  ] as const) {
    const recorded = records.filter(
      (record) => record.kind === kind && (record.state === "done" || record.state === "in_doubt")
    ).length
    if (made > recorded) fail("I3", `the lender made ${made} ${kind}(s), records account for ${recorded}`)
  }

  // I4
  if (final) {
    const approval = await approvalOfContract(world, contract)
    const holding =
      approval?.state === "ordered" &&
      standing &&
      (placed?.payment?.data as { gateway_reference?: string } | undefined)?.gateway_reference === contract
    const ended =
      holding ||
      (approval?.state === "ordered" && !standing) ||
      approval?.state === "released" ||
      approval?.state === "handled" ||
      lender.status === "VOIDED" ||
      attention
    if (!approval) fail("I4", `contract ${contract} approved at the lender has no approval row`)
    else if (!ended) fail("I4", `approval ${approval.id} is ${approval.state} (${approval.reason ?? "-"}), not ended`)
  }

  // I5
  if (lender.status === "VOIDED" && !MathBN.eq(lender.captured, 0)) {
    fail("I5", `contract ${contract} voided with ${lender.captured} captured`)
  }
  if (!checkout.pressedCapture && !checkout.parcels && !MathBN.eq(lender.captured, 0)) {
    fail("I5", `${lender.captured} captured with nothing packed or shipped and no capture pressed`)
  }
  return found
}
