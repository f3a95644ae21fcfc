import type { MedusaContainer } from "@medusajs/framework/types"
import { captureMissedParcels } from "../sweeps/capture-missed-parcels"
import { RECONCILE_SCHEDULE } from "../settings/job-schedules"

/**
 * On the reconciliation's schedule: parcels whose shipment (or fulfillment) event no subscriber
 * handled are captured, once each, as the subscriber would have.
 */
export default async function paybrightCaptureMissedParcels(container: MedusaContainer) {
  await captureMissedParcels(container)
}

export const config = {
  name: "paybright-capture-missed-parcels",
  schedule: RECONCILE_SCHEDULE,
}
