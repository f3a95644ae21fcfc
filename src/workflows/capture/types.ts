import type { PayBrightOptions } from "../../settings/options"

/** What starts a capture the plugin makes by itself. */
export type CaptureTrigger = "shipment" | "fulfillment"

/** The moment a registration captures on by itself: none for "manual", nor for a card a person charges. */
export function captureMomentOf(options: PayBrightOptions): CaptureTrigger | undefined {
  if (options.captureMode === "virtual_card" && options.cardProcessor?.type === "manual") return undefined
  return options.captureOn === "shipment" || options.captureOn === "fulfillment" ? options.captureOn : undefined
}

/** How a capture the plugin started ended, for the caller (subscriber, route, job). */
export type CaptureResult =
  | { status: "done" | "refused" | "in_doubt"; amount: string; recordId: string; message: string | null }
  | { status: "skipped"; reason: string }
