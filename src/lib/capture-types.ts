import type { Said } from "./texts/said"
import type { PayBrightOptions } from "./options"

/** What starts a capture the plugin makes by itself. */
export type CaptureTrigger = "shipment" | "fulfillment"

/** A capture the plugin makes by itself: a parcel's, or a person's retry of a refused one. */
export type CaptureRequestInput = { trigger: CaptureTrigger; fulfillment_id: string } | { retry_record_id: string }

/**
 * What was found of a capture before its payment's lock was taken: why the plugin does not make
 * it by itself, if it does not, and the parcel's order (read once, not again under the lock).
 */
export type LocatedCapture = { skip_reason: string | null; order_id?: string }

/**
 * The moment a payment is captured by itself: the one its registration said when it was authorized
 * (`capture_on` in its data), or the registration's now for a payment authorized before that was
 * kept; none for "manual", nor for a card a person charges.
 */
export function captureMomentOf(
  options: PayBrightOptions,
  payment?: { capture_on?: PayBrightOptions["captureOn"] }
): CaptureTrigger | undefined {
  if (options.captureMode === "virtual_card" && options.cardProcessor?.type === "manual") return undefined
  const captureOn = payment?.capture_on ?? options.captureOn
  return captureOn === "shipment" || captureOn === "fulfillment" ? captureOn : undefined
}

/** How a capture the plugin started ended, for the caller (subscriber, route, job). */
export type CaptureResult =
  | {
      status: "done" | "refused" | "in_doubt"
      amount: string
      recordId: string
      message: string | null
      /** The record's sentence as facts, for the admin to write in its language. */
      said: Said | null
    }
  | { status: "skipped"; reason: string }

/** The idempotency key of a parcel's capture: one per parcel, whatever moment started it. */
export function parcelCaptureKey(fulfillmentId: string): string {
  return `parcel:${fulfillmentId}`
}

/** Every key a parcel's capture may carry: its own, and the moment-keyed ones of earlier versions. */
export function parcelCaptureKeys(fulfillmentId: string): string[] {
  return [parcelCaptureKey(fulfillmentId), `shipment:${fulfillmentId}`, `fulfillment:${fulfillmentId}`]
}
