import { configManager } from "@medusajs/framework/config"
import type { ConfigModule } from "@medusajs/framework/types"
import { longestStripeCallMs, longestStripeChargeMs } from "./stripe"
import { configuredOptionsById } from "./provider-registry"
import { lender } from "../lenders"
import { parseOptions, type PayBrightOptions } from "./options"

/** How long a payment's lock may be held: the lease. Set, it must cover the longest capture. */
export const LOCK_TTL_ENV = "PAYBRIGHT_LOCK_TTL_SECONDS"
/** How long a capture or refund waits for a payment's lock before it is given up. */
export const LOCK_WAIT_ENV = "PAYBRIGHT_LOCK_WAIT_SECONDS"
/** The lease is never shorter than this, when derived. */
const SHORTEST_LEASE_SECONDS = 120
/** What the work under a lock takes beside the calls: Medusa's rows, the plugin's records. */
const DATABASE_MARGIN_MS = 30_000
/**
 * A store's own card processor says how long a charge or refund may take, retries included, with
 * the number option `longestCallMs`; otherwise this is assumed.
 */
const CUSTOM_PROCESSOR_CALL_MS = 60_000

type CardProcessorConfig = PayBrightOptions["cardProcessor"]

/** A positive number of seconds from the environment, read when a workflow runs. */
export function secondsFromEnv(name: string): number | undefined {
  const configured = Number(process.env[name])
  return Number.isFinite(configured) && configured > 0 ? configured : undefined
}

/** Seconds to wait for the payment's lock (PAYBRIGHT_LOCK_WAIT_SECONDS, default 60). */
export function lockWaitSeconds(): number {
  return secondsFromEnv(LOCK_WAIT_ENV) ?? 60
}

/**
 * How long a holder may keep a payment's lock: PAYBRIGHT_LOCK_TTL_SECONDS when set (the store
 * does not boot when it is shorter than a capture can take); otherwise derived from the options
 * of every PayBright registration, whatever capture mode and card processor the admin may pick,
 * at least 120 s. It is also how long a process killed while holding it blocks that payment.
 */
export function lockTtlSeconds(): number {
  const configured = secondsFromEnv(LOCK_TTL_ENV)
  if (configured) return configured
  return derivedLeases().payment
}

/** Medusa's own cart completion leases the cart's lock this long (completeCartWorkflow, 2.21). */
const MEDUSA_COMPLETION_LEASE_SECONDS = 120

/**
 * How long placing an approved order may hold the cart's lock: Medusa's own completion lease, or
 * longer when a registration's completion reads the virtual card (with its retries) for longer.
 * It leaves out the card processor's charge, which the payment's lease covers: a process killed
 * while placing orders blocks those carts only this long, then the lender's next delivery or the
 * store's own retry places them.
 */
export function completionLeaseSeconds(configs?: PayBrightOptions[]): number {
  if (!configs) return derivedLeases().completion
  const longest = Math.max(0, ...configs.map((options) => longestCardReadMs(options)))
  return leaseSeconds(longest, MEDUSA_COMPLETION_LEASE_SECONDS)
}

/**
 * The longest read of a contract's virtual card, its retries included: what a completion through
 * the virtual card calls (whatever the capture mode now, since the admin may switch to it).
 */
export function longestCardReadMs(options: PayBrightOptions): number {
  return lender.longestCallMs(options.timeoutMs, "card_read")
}

/**
 * The lease of a refund going back to `charges` card charges one after the other: the store's
 * lease, or longer when the refund needs it.
 */
export function refundLeaseSeconds(options: PayBrightOptions, charges: number): number {
  return Math.max(lockTtlSeconds(), leaseSeconds(longestRefundMs(options, charges)))
}

/**
 * Why these options cannot run under the lease PAYBRIGHT_LOCK_TTL_SECONDS sets, naming the
 * options to lower; undefined when they can (or the lease is derived). Checked at boot and on
 * each save in the admin.
 */
export function leaseProblem(
  options: PayBrightOptions
): { option: string; message: string; values: { needed: number; variable: string; configured: number } } | undefined {
  const configured = secondsFromEnv(LOCK_TTL_ENV)
  const needed = leaseSeconds(longestCaptureMs(options), 0)
  if (!configured || needed <= configured) return undefined
  const stripe = options.captureMode === "virtual_card" && options.cardProcessor?.type === "stripe"
  const option = stripe ? "cardProcessor.options.timeoutMs" : "timeoutMs"
  return {
    option,
    values: { needed, variable: LOCK_TTL_ENV, configured },
    message: `makes one capture take up to ${needed} s with the lender's${stripe ? " and Stripe's" : ""} retries and 30 s for the database, longer than the payment lock's lease ${LOCK_TTL_ENV}=${configured}: lower \`timeoutMs\`${stripe ? " or `cardProcessor.options.timeoutMs`" : ""}, or raise ${LOCK_TTL_ENV} (or unset it, and the plugin derives the lease)`,
  }
}

function leaseSeconds(callsMs: number, floor = SHORTEST_LEASE_SECONDS): number {
  return Math.max(floor, Math.ceil((callsMs + DATABASE_MARGIN_MS) / 1000))
}

/**
 * The longest one capture takes with these options: in store, one call to the lender; through
 * the virtual card, the card read (with its retries), then the processor's charge.
 */
export function longestCaptureMs(options: PayBrightOptions): number {
  if (options.captureMode !== "virtual_card") return lender.longestCallMs(options.timeoutMs, "movement")
  return longestCardReadMs(options) + processorChargeMs(options.cardProcessor)
}

/** The longest one refund takes: in store, one call; through the virtual card, one processor refund per charge. */
export function longestRefundMs(options: PayBrightOptions, charges: number): number {
  if (options.captureMode !== "virtual_card") return lender.longestCallMs(options.timeoutMs, "movement")
  return Math.max(1, charges) * processorRefundMs(options.cardProcessor)
}

function processorChargeMs(processor: CardProcessorConfig): number {
  if (processor?.type === "stripe") return longestStripeChargeMs(processor.options.timeoutMs)
  return processor?.type === "custom" ? customCallMs(processor) : 0
}

function processorRefundMs(processor: CardProcessorConfig): number {
  if (processor?.type === "stripe") return longestStripeCallMs(processor.options.timeoutMs)
  return processor?.type === "custom" ? customCallMs(processor) : 0
}

function customCallMs(processor: Extract<CardProcessorConfig, { type: "custom" }>): number {
  const declared = Number(processor.options?.longestCallMs)
  return Number.isFinite(declared) && declared > 0 ? declared : CUSTOM_PROCESSOR_CALL_MS
}

/**
 * The longest capture of a registration, whatever the admin picks: in store, or through the
 * virtual card charged by Stripe (with the connection medusa-config.ts sets, or Stripe's
 * defaults), by a person, or by the store's own processor when one is configured.
 */
function longestChosenCaptureMs(config: Record<string, unknown>): number {
  const options = parseOptions(config)
  const configured = options.cardProcessor
  const stripe = { type: "stripe" as const, options: configured?.type === "stripe" ? configured.options : {} }
  const choices = [configured, stripe as CardProcessorConfig]
  return Math.max(
    longestCaptureMs({ ...options, captureMode: "in_store" }),
    ...choices.map((cardProcessor) => longestCaptureMs({ ...options, captureMode: "virtual_card", cardProcessor }))
  )
}

/**
 * The leases the store's PayBright registrations derive, worked out once per loaded configuration
 * (medusa-config.ts does not change while a process runs, and every lock taken asks); none derived
 * from registrations before the configuration is loaded, and that answer is not kept.
 */
function derivedLeases(): { payment: number; completion: number } {
  let config: ConfigModule | undefined
  try {
    config = configManager.config as ConfigModule
  } catch {
    config = undefined
  }
  const known = config && leasesByConfig.get(config)
  if (known) return known
  const registrations = config ? [...configuredOptionsById(config).values()] : []
  const leases = {
    payment: leaseSeconds(Math.max(0, ...registrations.map((options) => longestChosenCaptureMs(options)))),
    completion: completionLeaseSeconds(registrations.map(parseOptions)),
  }
  if (config && registrations.length > 0) leasesByConfig.set(config, leases)
  return leases
}
const leasesByConfig = new WeakMap<ConfigModule, { payment: number; completion: number }>()
