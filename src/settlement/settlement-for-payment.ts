import type { PayBrightOptions } from "../settings/options"
import { moverOfPayment } from "./mover-of-payment"
import type { ChannelMover } from "./types"

/** moverOfPayment in the provider's spelling (`settlement` for `mover`), kept until its file reads moverOfPayment. */
export function settlementFor(
  ...args: Parameters<typeof moverOfPayment>
): { settlement: ChannelMover; options: PayBrightOptions } | { unavailable: string } {
  const found = moverOfPayment(...args)
  return "unavailable" in found ? found : { settlement: found.mover, options: found.options }
}
