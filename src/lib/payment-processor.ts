import type { PayBrightOptions } from "./options"

/**
 * Who charges a PayBright payment's virtual card: the processor the payment was authorized under
 * (`card_processor` in its data: "stripe", "manual" or a store's own processor's name), or, for a
 * payment authorized before that was recorded, the one of the settings in force. None for a
 * payment captured in store.
 */
export function cardProcessorOf(data: unknown, settings: PayBrightOptions | undefined): string | null {
  const recorded = (data ?? {}) as { capture_mode?: unknown; card_processor?: unknown }
  if ((recorded.capture_mode ?? settings?.captureMode) !== "virtual_card") return null
  return typeof recorded.card_processor === "string" ? recorded.card_processor : (settings?.cardProcessor?.type ?? null)
}
