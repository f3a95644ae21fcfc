import type { MoneyOutcome } from "../lender/errors"
import { MathBN } from "@medusajs/framework/utils"
import { moneyText } from "./money-text"

/** A movement of money the merchant hears about; a void releases the shopper's loan. */
export type MoneyMovement = "capture" | "refund" | "void"

/** What happened to one capture or refund, as lower layers report it: facts, no advice. */
export type MoneyFacts = {
  movement: MoneyMovement
  outcome: MoneyOutcome
  /** Two-decimal amount. */
  amount: string
  currency: string
  /** The lender's contract (x_gateway_reference). */
  contract: string
  /** Who moves the money: "PayBright", or the card processor for a virtual card ("stripe"). */
  via: string
  /** What the lower layer observed, e.g. "PayBright did not answer in time for the capture". */
  fact?: string
}

const PAST: Record<MoneyMovement, string> = { capture: "captured", refund: "refunded", void: "released" }

/**
 * The one place that writes what a merchant reads about a capture or refund: what happened and
 * what to do next, in one sentence. Lower layers pass facts; advice is written only here, so an
 * "it may have been made" can never be followed by "nothing was changed".
 */
export function merchantMessage(facts: MoneyFacts): string {
  if (facts.movement === "void") {
    return voidMessage(facts)
  }
  const money = moneyText(facts.amount, facts.currency)
  const where =
    facts.via === "PayBright"
      ? `on PayBright contract ${facts.contract}`
      : `on the virtual card of PayBright contract ${facts.contract} through ${facts.via}`
  const because = facts.fact ? ` (${withoutFinalStop(facts.fact)})` : ""
  switch (facts.outcome) {
    case "done":
      return `${capitalized(PAST[facts.movement])} ${money} ${where}.`
    case "refused":
      return `The ${facts.movement} of ${money} ${where} was not made${because}; nothing moved, so fix the cause and try again.`
    case "in_doubt":
      return `The ${facts.movement} of ${money} ${where} may have been made${because}; check the contract in the PayBright portal${facts.via === "PayBright" ? "" : ` and the payment in ${facts.via}`}, then resolve this record as ${PAST[facts.movement]} or not, before anything else is captured or refunded on this payment.`
  }
}

/**
 * What the merchant reads when the ledgers part for a reason of Medusa's own: a movement PayBright
 * made, or may have made, that Medusa no longer counts (it removed its Capture or Refund after a
 * failure of its own or of the provider's),
 * or a Capture or Refund Medusa counts that no PayBright record explains. Either is in doubt until a
 * person looks at the portal.
 */
export function ledgersPartedMessage(
  facts: Pick<MoneyFacts, "amount" | "currency" | "contract"> & {
    movement: "capture" | "refund"
    side: "removed_by_medusa" | "outcome_lost_removed_by_medusa" | "unexplained_in_medusa"
  }
): string {
  const money = moneyText(facts.amount, facts.currency)
  const what = {
    removed_by_medusa: `The ${facts.movement} of ${money} on PayBright contract ${facts.contract} was made at PayBright, but Medusa removed its own record of it after a failure of its own, so Medusa does not count it`,
    outcome_lost_removed_by_medusa: `The ${facts.movement} of ${money} on PayBright contract ${facts.contract} was sent and may have been made at PayBright, but its outcome was never written and Medusa removed its own record of it, so Medusa does not count it`,
    unexplained_in_medusa: `Medusa counts a ${facts.movement} of ${money} on PayBright contract ${facts.contract} that no PayBright record explains`,
  }[facts.side]
  return `${what}; check the contract in the PayBright portal, then resolve this record as ${PAST[facts.movement]} or not, before anything else is captured or refunded on this payment.`
}

/** A void releases the whole contract: the merchant reads about the shopper's loan, not about money moved. */
function voidMessage(facts: MoneyFacts): string {
  const contract = `PayBright contract ${facts.contract} (${moneyText(facts.amount, facts.currency)})`
  const because = facts.fact ? ` (${withoutFinalStop(facts.fact)})` : ""
  switch (facts.outcome) {
    case "done":
      return `Released ${contract}: PayBright voided it, so the shopper's loan is cancelled.`
    case "refused":
      return `${contract} was not released${because}; the shopper's loan is still live, so fix the cause and retry the release, or cancel the contract in the PayBright portal and resolve this record as released.`
    case "in_doubt":
      return `${contract} may have been released${because}; check the contract in the PayBright portal, then resolve this record as released or not.`
  }
}

/** Why a new capture or refund is not started while an earlier one is in doubt. */
export function blockedByDoubtMessage(doubt: {
  movement: MoneyMovement
  amount: string
  currency: string
  contract: string
}): string {
  return `A ${doubt.movement} of ${moneyText(doubt.amount, doubt.currency)} on PayBright contract ${doubt.contract} is in doubt; resolve it in the order's PayBright panel (captured or not, as the PayBright portal shows) before capturing or refunding again.`
}

/** Why an order or payment is not cancelled while one of its movements is running or in doubt. */
export function cancelBlockedMessage(record: {
  id: string
  movement: MoneyMovement
  state: "pending" | "in_doubt"
  amount: string
  currency: string
  contract: string
}): string {
  const what = `the ${record.movement} of ${moneyText(record.amount, record.currency)} on PayBright contract ${record.contract}`
  return record.state === "in_doubt"
    ? `Not cancelled: ${what} is in doubt (record ${record.id}); resolve it in the order's PayBright panel as the PayBright portal shows, then cancel again.`
    : `Not cancelled: ${what} is still running (record ${record.id}); wait until it ends, then cancel again.`
}

/** A capture that could not even be started (lock wait, database error); the record keeps it for a retry. */
export function notStartedMessage(movement: MoneyMovement, fact: string): string {
  return `The ${movement} could not be started (${withoutFinalStop(fact)}); nothing moved, so retry it from the order's PayBright panel.`
}

/**
 * A parcel shipped while Medusa's payment for it was cancelled by an order change and before the
 * contract was carried into the order's new payment (src/approvals/carried-contract.ts).
 */
export function cancelledAuthorizationMessage(amount: string, currency: string, contract: string): string {
  return `This parcel (${moneyText(amount, currency)}) was not captured because Medusa had just replaced the order's payment after an order change; PayBright contract ${contract} carries on in the new payment, so retry the capture from the order's PayBright panel.`
}

/**
 * An order change made Medusa replace the order's payment collection: the contract was carried
 * into the new one, and what it cannot cover (an edit above the approved amount) is for the
 * merchant to collect another way. Amounts in the lender's cents.
 */
export function carriedContractMessage(carry: {
  contract: string
  amount: string
  uncovered: string
  currency: string
}): string {
  const carried = `The order changed, so Medusa replaced its payment; PayBright contract ${carry.contract} carries on with ${moneyText(carry.amount, carry.currency)} still to be captured from the new payment`
  if (!MathBN.gt(carry.uncovered, 0)) return `${carried}.`
  return `${carried}, and ${moneyText(carry.uncovered, carry.currency)} is above what the contract covers: collect it another way (Medusa's payment link, or mark it as paid).`
}

/** An order an edit raised above what its carried PayBright contract covers. Amount in the lender's cents. */
export function uncoveredBalanceMessage(contract: string, amount: string, currency: string): string {
  return `The order now totals more than PayBright contract ${contract} covers: collect the remaining ${moneyText(amount, currency)} another way (Medusa's payment link, or mark it as paid).`
}

/** A fractional amount that is not everything that remains: it has no meaning at the lender, which moves cents. */
export function tooPreciseMessage(movement: MoneyMovement, amount: string): string {
  return `The ${movement} amount ${amount} has fractions of a cent and is not everything that remains, and PayBright moves whole cents; enter an amount in cents, or ${movement} everything that remains.`
}

/** How a resolution reads in the event log. */
export function resolutionMessage(
  movement: MoneyMovement,
  lenderShows: "done" | "nothing",
  amount: string,
  currency: string
): string {
  if (movement === "void") {
    return lenderShows === "done"
      ? `Resolved: PayBright shows the contract (${moneyText(amount, currency)}) cancelled; the shopper's loan is released.`
      : `Resolved: PayBright shows the contract (${moneyText(amount, currency)}) still live; retry the release.`
  }
  return lenderShows === "done"
    ? `Resolved: PayBright shows the ${movement} of ${moneyText(amount, currency)}; recorded in Medusa without calling PayBright again.`
    : `Resolved: PayBright shows no ${movement} of ${moneyText(amount, currency)}; a new attempt is allowed.`
}

/** A resolution as done that Medusa would not record: the record stays in doubt. */
export function medusaRefusedResolutionMessage(
  movement: "capture" | "refund" | "release",
  reason: string,
  state: "in doubt" | "refused" = "in doubt"
): string {
  const advice =
    movement === "capture"
      ? "if PayBright captured it, refund it in the PayBright portal, then resolve this record as not captured"
      : "fix what Medusa names, then resolve it again"
  return `Medusa refused to record this ${movement} (${withoutFinalStop(reason)}), so the record stays ${state} and nothing was recorded; ${advice}.`
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}

function withoutFinalStop(text: string): string {
  return text.trim().replace(/[.;:]+$/, "")
}
