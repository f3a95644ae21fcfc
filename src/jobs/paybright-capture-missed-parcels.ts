import type { MedusaContainer } from "@medusajs/framework/types"
import { captureMissedParcels } from "../sweeps/capture-missed-parcels"
import { carryMissedContracts } from "../sweeps/carry-missed-contracts"
import { voidMissedCancellations } from "../sweeps/void-missed-cancellations"
import { RECONCILE_SCHEDULE } from "../lib/job-schedules"

/**
 * On the reconciliation's schedule: contracts an order change left uncarried are carried into the
 * order's new collection, contracts of cancelled orders that no payment's cancellation voided are
 * voided, then parcels whose shipment (or fulfillment) event no subscriber handled
 * are captured, once each, as the subscribers would have.
 */
export default async function paybrightCaptureMissedParcels(container: MedusaContainer) {
  await carryMissedContracts(container)
  await voidMissedCancellations(container)
  await captureMissedParcels(container)
}

export const config = {
  name: "paybright-capture-missed-parcels",
  schedule: RECONCILE_SCHEDULE,
}
