import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { forLog, messageOf } from "../lib/texts/log-text"
import type { OrphanReason } from "../modules/paybright/approval-reasons"
import type { PayBrightOptions } from "../lib/options"
import { providersInForce } from "../lib/provider-registry"
import { channelOf } from "../lib/payment-channel"
import {
  placementFailureOf,
  type ApplicationResultOutcome,
  type PlacementFailure,
  type RegistrationFacts,
} from "../lib/lender-result-decision"
import { processLenderResultWorkflow, type ProcessLenderResultInput } from "./process-lender-result"
import { suitsCaptureMode, type LenderResult } from "../lenders/lender"
import { lender } from "../lenders"
import { readReturnToken } from "../lib/return-token"

export type { ApplicationResultOutcome } from "../lib/lender-result-decision"

export type HandledResult = { outcome: ApplicationResultOutcome; options?: PayBrightOptions }

export type Delivery = {
  /** The `ctx` token of the URL the lender called: which checkout the result belongs to. */
  returnToken?: unknown
  /** Seconds to wait for a completion another request is running. */
  lockTimeoutSeconds: number
}

/** A PayBright registration in force: a lender result names none, so it is checked against each. */
export type Registration = { providerId: string; options: PayBrightOptions }

/** What the gate makes of a delivery before anything is looked up. */
export type GateVerdict =
  | { kind: "answered"; handled: HandledResult; log?: { level: "info" | "warn"; text: string } }
  | { kind: "verified"; input: Omit<ProcessLenderResultInput, "lock_timeout" | "now">; options: PayBrightOptions }

/**
 * The one path for a hosted-application result, whichever of the callback, the return and the
 * unplaced-approvals sweep delivers it. A result passes two checkpoints, each for its own reason:
 * - here: the signature is verified before anything is looked up (gateLenderResult), then
 *   processLenderResultWorkflow reads, decides and acts (its rules are written there);
 * - in the provider's `authorizePayment`, called by Medusa's cart completion with nothing but the
 *   session's data, which the storefront can write: it reads the approval from the plugin's row for
 *   the session Medusa names, so only an approval the plugin verified authorizes a payment.
 * A placement that fails is decided by a second run with the failure as a fact, told by the
 * error's type; a cart another request holds answers "processing" (the lender delivers again).
 * `now`: the clock the grace period is measured by (the sweep's, which a test may set ahead).
 */
export async function handleApplicationResult(
  scope: MedusaContainer,
  input: unknown,
  delivery: Delivery,
  now: () => number = () => Date.now()
): Promise<HandledResult> {
  const logger = scope.resolve<Logger>("logger")
  const verdict = gateLenderResult(input, await providersInForce(scope), delivery.returnToken)
  if (verdict.kind === "answered") {
    if (verdict.log) logger[verdict.log.level](verdict.log.text)
    return verdict.handled
  }
  const { options } = verdict
  const contract = verdict.input.result.contract
  const run = (failure: PlacementFailure | null) =>
    processLenderResultWorkflow(scope).run({
      input: { ...verdict.input, lock_timeout: delivery.lockTimeoutSeconds, now: now(), failure },
    })
  if (verdict.input.unusable) {
    // Signed by the lender, so a contract may stand behind it: recorded for the merchant, never an order.
    logger.error(
      `PayBright: a signed result for contract ${forLog(contract)} cannot be used (${verdict.input.unusable}); it is recorded for the merchant`
    )
  }
  // Deliveries of one checkout racing (the callback, its copies, the return) write the same rows:
  // the loser's write fails on the table's own rule, and a repeat finds the winner's rows.
  const firstRun = async () => {
    try {
      return await run(null)
    } catch (error) {
      if (placementFailureOf(error).busy) throw error
      logger.warn(`PayBright: contract ${contract} is looked at again after: ${messageOf(error)}`)
      return run(null)
    }
  }
  let failure: PlacementFailure
  try {
    const { result, errors } = await firstRun()
    if (!result.placement_failed) return { outcome: logged(logger, contract, result.outcome), options }
    failure = placementFailureOf(errors[0]?.error)
  } catch (error) {
    // Only a lock held elsewhere is expected here; anything else is the store's own failure.
    failure = placementFailureOf(error)
    if (!failure.busy) throw error
  }
  if (!failure.busy) {
    logger.warn(`PayBright: the cart of contract ${contract} could not become an order: ${failure.message}`)
  }
  try {
    const { result } = await run(failure)
    return { outcome: logged(logger, contract, result.outcome), options }
  } catch (error) {
    if (!placementFailureOf(error).busy) throw error
    logger.warn(`PayBright: contract ${contract} is not decided yet: another request holds its cart`)
    return { outcome: { kind: "processing" }, options }
  }
}

function logged(logger: Logger, contract: string, outcome: ApplicationResultOutcome): ApplicationResultOutcome {
  if (outcome.kind === "placed") logger.info(`PayBright: contract ${contract} is order ${outcome.orderId}`)
  if (outcome.kind === "processing") {
    logger.warn(`PayBright: contract ${contract} has no order yet; the next delivery tries again`)
  }
  return outcome
}

/**
 * What a delivery is before anything is looked up: rejected (no signed result, a signature that
 * does not verify, incomplete fields), acknowledged (the lender's copy of the plugin's own
 * order-management call), or a verified result with the facts of the registrations in force.
 */
export function gateLenderResult(input: unknown, registrations: Registration[], returnToken?: unknown): GateVerdict {
  const reject = (status: 400 | 401, reason: string, options?: PayBrightOptions): GateVerdict => ({
    kind: "answered",
    handled: { outcome: { kind: "rejected", status, reason }, options },
    log: { level: "warn", text: `PayBright: rejected an application result: ${reason}` },
  })
  const reading = lender.readResult(input, registrations)
  if (reading.kind === "rejected") return reject(reading.status, reading.reason)
  const { signer } = reading
  const options = signer.options
  if (reading.kind === "order_management") {
    // The void's own answer already concluded its record; this copy changes nothing.
    return {
      kind: "answered",
      handled: { outcome: { kind: "acknowledged" }, options },
      log: { level: "info", text: `PayBright: the lender posted ${reading.summary}` },
    }
  }
  if (reading.kind === "incomplete") return reject(400, reading.reason, options)
  const { result } = reading
  const facts = (registration: Registration): RegistrationFacts => ({
    provider_id: registration.providerId,
    account_id: registration.options.apiKey,
    capture_mode: registration.options.captureMode,
    grace_minutes: registration.options.virtualCardGraceMinutes,
    channel: channelOf(registration.options),
    accepts_transaction_type: suitsCaptureMode(result, registration.options.captureMode),
  })
  const token = readReturnToken(options.apiToken, returnToken)
  return {
    kind: "verified",
    options,
    input: {
      result: {
        contract: result.contract,
        session_id: result.reference,
        account_id: result.account,
        amount: result.amount,
        currency_code: result.currency,
        outcome: result.outcome,
        fields: result.fields,
      },
      signer: facts(signer),
      registrations: registrations.map(facts),
      unusable: unusableReason(result, options),
      token: token ? { session_id: token.session_id, payment_collection_id: token.payment_collection_id } : null,
    },
  }
}

/**
 * Why a signed result cannot be used, if it cannot: it carries fields only a request has (a signed
 * request replayed, or a lender answering oddly), its test flag is not the store's, or its result
 * is not one PayBright documents.
 */
function unusableReason(result: LenderResult, options: PayBrightOptions): OrphanReason | null {
  if (result.requestFields.length > 0) return "request_fields"
  if (result.test !== options.test) return "test_mismatch"
  if (result.outcome === "unknown") return "unknown_result"
  return null
}
