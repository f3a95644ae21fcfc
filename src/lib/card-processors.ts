import path from "node:path"
import { z } from "zod"
import { ManualCardProcessor } from "./manual"
import { StripeCardProcessor, stripeProcessorOptionsSchema } from "./stripe"
import type { CardProcessor } from "./card-processor-types"

export * from "./card-processor-types"

/**
 * Which processor charges virtual cards: the built-in Stripe or manual ones, or a store's own
 * module (`resolve`: a package name or a path from the store's root) whose default export is a
 * class taking `options`, or a function returning a CardProcessor.
 */
export const cardProcessorConfigSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("stripe"), options: stripeProcessorOptionsSchema }).strict(),
  z.object({ type: z.literal("manual") }).strict(),
  z
    .object({
      type: z.literal("custom"),
      resolve: z.string().min(1),
      options: z.record(z.string(), z.unknown()).default({}),
    })
    .strict(),
])
export type CardProcessorConfig = z.input<typeof cardProcessorConfigSchema>

export function createCardProcessor(config: z.output<typeof cardProcessorConfigSchema>): CardProcessor {
  switch (config.type) {
    case "stripe":
      return new StripeCardProcessor(config.options)
    case "manual":
      return new ManualCardProcessor()
    case "custom":
      return loadCustomProcessor(config.resolve, config.options)
  }
}

function loadCustomProcessor(resolve: string, options: Record<string, unknown>): CardProcessor {
  const target = resolve.startsWith(".") ? path.resolve(process.cwd(), resolve) : resolve
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const loaded = require(target)
  const exported = loaded?.default ?? loaded
  const processor: CardProcessor =
    typeof exported === "function" && exported.prototype?.charge
      ? new exported(options)
      : typeof exported === "function"
        ? exported(options)
        : exported
  if (
    !processor ||
    typeof processor.charge !== "function" ||
    typeof processor.refund !== "function" ||
    !processor.name
  ) {
    throw new Error(`The card processor module "${resolve}" does not export a CardProcessor (name, charge, refund)`)
  }
  return processor
}
