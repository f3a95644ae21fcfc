/** What starts a capture the plugin makes by itself. */
export type CaptureTrigger = "shipment" | "fulfillment"

/** How a capture the plugin started ended, for the caller (subscriber, route, job). */
export type CaptureResult =
  | { status: "done" | "refused" | "in_doubt"; amount: string; recordId: string; message: string | null }
  | { status: "skipped"; reason: string }
