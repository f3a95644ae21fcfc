import { pluginRecords } from "../lib/plugin-records"
import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { settingsInForce } from "../lib/provider-registry"
import { isPayBright } from "../storefront/provider"
import { collectionsOfOrders, orderIdsOfFulfillments } from "../lib/medusa-links"
import { capturePaymentOnceWorkflow } from "../workflows/capture-payment-once"
import { captureMomentOf, type CaptureTrigger } from "../lib/capture-types"
import { nothingLeftToCapture, openRefusals, parcelCaptureStoppedBeforeStart } from "../lib/open-refusals"
import type { MoneyRecordRow } from "../modules/paybright/money-record-types"

/**
 * A parcel younger than this is left to the subscriber its event reaches within seconds; older and
 * without a capture record, its event was lost (Redis restarted as Medusa released it, say).
 */
const EVENT_GRACE_MS = 2 * 60_000
/** How far back parcels are looked at: a day of shipments, every run of the reconciliation job. */
const LOOK_BACK_MS = 24 * 60 * 60_000

export type MissedParcel = { trigger: CaptureTrigger; fulfillment_id: string }

/**
 * Parcels of PayBright orders that shipped (or were packed, for captureOn "fulfillment") between a
 * day and two minutes ago, whose provider captures on that moment, whose payment is not fully
 * captured, and which have no capture record: Medusa emitted an event no subscriber ever handled.
 */
export async function missedParcels(container: MedusaContainer, now = Date.now()): Promise<MissedParcel[]> {
  const window = { $gte: new Date(now - LOOK_BACK_MS), $lte: new Date(now - EVENT_GRACE_MS) }
  const fulfillments = container.resolve(Modules.FULFILLMENT)
  const [shipped, packed] = await Promise.all([
    fulfillments.listFulfillments({ shipped_at: window, canceled_at: null } as never, { select: ["id"] }),
    fulfillments.listFulfillments({ created_at: window, canceled_at: null } as never, { select: ["id"] }),
  ])
  const candidates: MissedParcel[] = [
    ...shipped.map((parcel) => ({ trigger: "shipment" as const, fulfillment_id: parcel.id })),
    ...packed.map((parcel) => ({ trigger: "fulfillment" as const, fulfillment_id: parcel.id })),
  ]
  if (!candidates.length) return []
  const ids = [...new Set(candidates.map((candidate) => candidate.fulfillment_id))]
  const recorded = new Set(
    (await pluginRecords(container).listPayBrightMoneyRecords({ fulfillment_id: ids, kind: "capture" } as never)).map(
      (record: { fulfillment_id?: string | null }) => record.fulfillment_id
    )
  )
  const unrecorded = ids.filter((id) => !recorded.has(id))
  if (!unrecorded.length) return []
  const capturesOn = await captureMomentByFulfillment(container, unrecorded)
  return candidates.filter(
    (candidate) =>
      !recorded.has(candidate.fulfillment_id) && capturesOn.get(candidate.fulfillment_id) === candidate.trigger
  )
}

/**
 * For each fulfillment of an order with a PayBright payment not yet fully captured, the moment its
 * provider captures on by itself (none for "manual", nor for the manual card processor).
 */
async function captureMomentByFulfillment(
  container: MedusaContainer,
  fulfillmentIds: string[]
): Promise<Map<string, CaptureTrigger>> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const orderOfParcel = await orderIdsOfFulfillments(query, fulfillmentIds)
  const orderIds = [...new Set(orderOfParcel.values())]
  if (!orderIds.length) return new Map()
  const collections = await collectionsOfOrders<{ id: string; payments?: any[] }>(query, orderIds, [
    "payments.provider_id",
    "payments.data",
    "payments.captured_at",
    "payments.canceled_at",
  ])
  const momentOfOrder = new Map<string, CaptureTrigger>()
  for (const [orderId, ofOrder] of collections) {
    for (const collection of ofOrder) {
      const payment = (collection.payments ?? []).find(
        (candidate: any) => isPayBright(candidate.provider_id) && !candidate.captured_at && !candidate.canceled_at
      )
      if (!payment) continue
      const options = (await settingsInForce(container, payment.provider_id))?.options
      const moment = options && captureMomentOf(options, payment.data)
      if (moment) momentOfOrder.set(orderId, moment)
    }
  }
  const moments = new Map<string, CaptureTrigger>()
  for (const [fulfillmentId, orderId] of orderOfParcel) {
    const moment = momentOfOrder.get(orderId)
    if (moment) moments.set(fulfillmentId, moment)
  }
  return moments
}

/**
 * Parcels' own captures of the last day that the reconciliation refused because their process
 * stopped before anything was sent, still open (nobody retried them, nothing took their money
 * since): a crash of the plugin's own making, which the merchant expects mended as a lost event is.
 */
export async function capturesStoppedBeforeStart(
  container: MedusaContainer,
  now = Date.now()
): Promise<MoneyRecordRow[]> {
  const records = pluginRecords(container)
  const refused = (
    (await records.listPayBrightMoneyRecords({
      kind: "capture",
      state: "refused",
      trigger: ["shipment", "fulfillment"],
      created_at: { $gte: new Date(now - LOOK_BACK_MS) },
    } as never)) as unknown as MoneyRecordRow[]
  ).filter(parcelCaptureStoppedBeforeStart)
  if (!refused.length) return []
  const paymentIds = [...new Set(refused.map((record) => record.payment_id!))]
  const ofTheirPayments = (await records.listPayBrightMoneyRecords({
    payment_id: paymentIds,
    kind: "capture",
  } as never)) as unknown as MoneyRecordRow[]
  const fullyCaptured = await nothingLeftToCapture(container, paymentIds)
  const open = new Set(openRefusals(ofTheirPayments, (paymentId) => fullyCaptured.has(paymentId)).map(({ id }) => id))
  return refused.filter((record) => open.has(record.id))
}

/**
 * Captures the parcels whose event was lost, each through the same once-only workflow as the
 * subscriber (a parcel already recorded is never captured again), then makes once more, as a
 * retry, each parcel capture whose process stopped before it started (its retry, if it stops too,
 * is left to a person). Answers how many it ran.
 */
export async function captureMissedParcels(container: MedusaContainer): Promise<number> {
  const logger = container.resolve<Logger>(ContainerRegistrationKeys.LOGGER)
  const parcels = await missedParcels(container)
  const unstarted = await capturesStoppedBeforeStart(container)
  for (const record of unstarted) {
    logger.warn(
      `PayBright: the capture of fulfillment ${record.fulfillment_id} never started (its process stopped first); capturing it now (record ${record.id})`
    )
    const { errors } = await capturePaymentOnceWorkflow(container).run({
      input: { retry_record_id: record.id },
      throwOnError: false,
    })
    if (errors?.length) {
      // Still open, so the next run of the job tries it again.
      logger.warn(
        `PayBright: the capture of fulfillment ${record.fulfillment_id} could not start: ${errors[0].error?.message ?? "unknown error"}`
      )
    }
  }
  for (const parcel of parcels) {
    logger.warn(
      `PayBright: fulfillment ${parcel.fulfillment_id} has no capture at ${parcel.trigger} (its event was not handled); capturing it now`
    )
    const { errors } = await capturePaymentOnceWorkflow(container).run({ input: parcel, throwOnError: false })
    if (errors?.length) {
      // Left without a record, so the next run of the job tries it again.
      logger.warn(
        `PayBright: the capture of fulfillment ${parcel.fulfillment_id} could not start: ${errors[0].error?.message ?? "unknown error"}`
      )
    }
  }
  return parcels.length + unstarted.length
}
