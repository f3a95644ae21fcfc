import type { MoneyOutcome } from "../lenders/errors"
import { MathBN } from "@medusajs/framework/utils"
import { money, nested, said, verbatim, type Said } from "./texts/said"

/** A movement of money the merchant hears about; a void cancels the shopper's loan. */
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
  /** What the lower layer observed, e.g. that PayBright did not answer in time for the capture. */
  fact?: Said | string
}

/**
 * The one place that decides what a merchant reads about a capture, refund or void: what
 * happened and what to do next, in one sentence (src/lib/texts writes it in each language).
 * Lower layers pass facts; advice is chosen only here, so an "it may have been made" can never be
 * followed by "nothing was changed".
 */
export function merchantMessage(facts: MoneyFacts): Said {
  const amount = money(facts.amount, facts.currency)
  const because = becauseOf(facts.fact)
  if (facts.movement === "void") {
    return said(`void_${facts.outcome}`, { contract: facts.contract, amount, because })
  }
  const onPayBright = facts.via === "PayBright"
  const where = nested(
    onPayBright
      ? said("where_paybright", { contract: facts.contract })
      : said("where_card", { contract: facts.contract, via: facts.via })
  )
  return said(`${facts.movement}_${facts.outcome}`, {
    amount,
    where,
    because,
    check_too: onPayBright ? undefined : nested(said("check_processor_too", { via: facts.via })),
  })
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
): Said {
  return said(`${facts.movement}_${facts.side}`, {
    amount: money(facts.amount, facts.currency),
    contract: facts.contract,
  })
}

/** Why a new capture or refund is not started while an earlier one is in doubt. */
export function blockedByDoubtMessage(doubt: {
  movement: MoneyMovement
  amount: string
  currency: string
  contract: string
}): Said {
  return said("blocked_by_doubt", {
    movement: nested(said(`a_${doubt.movement}`)),
    amount: money(doubt.amount, doubt.currency),
    contract: doubt.contract,
  })
}

/** Why an order or payment is not cancelled while one of its movements is running or in doubt. */
export function cancelBlockedMessage(record: {
  id: string
  movement: MoneyMovement
  state: "pending" | "in_doubt"
  amount: string
  currency: string
  contract: string
}): Said {
  return said(record.state === "in_doubt" ? "cancel_blocked_in_doubt" : "cancel_blocked_running", {
    movement: nested(said(`the_${record.movement}`)),
    amount: money(record.amount, record.currency),
    contract: record.contract,
    record: record.id,
  })
}

/** A capture that could not even be started (lock wait, database error); the record keeps it for a retry. */
export function notStartedMessage(movement: MoneyMovement, fact: Said | string): Said {
  return said(`${movement}_not_started`, { fact: factOf(fact) })
}

/**
 * A parcel shipped while Medusa's payment for it was cancelled by an order change and before the
 * contract was carried into the order's new payment (src/lib/carried-contract.ts).
 */
export function cancelledAuthorizationMessage(amount: string, currency: string, contract: string): Said {
  return said("parcel_payment_replaced", { amount: money(amount, currency), contract })
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
}): Said {
  const facts = { contract: carry.contract, amount: money(carry.amount, carry.currency) }
  if (!MathBN.gt(carry.uncovered, 0)) return said("contract_carried", facts)
  return said("contract_carried_uncovered", { ...facts, uncovered: money(carry.uncovered, carry.currency) })
}

/** An order an edit raised above what its carried PayBright contract covers. Amount in the lender's cents. */
export function uncoveredBalanceMessage(contract: string, amount: string, currency: string): Said {
  return said("above_the_loan", { contract, amount: money(amount, currency) })
}

/** A fractional amount that is not everything that remains: it has no meaning at the lender, which moves cents. */
export function tooPreciseMessage(movement: MoneyMovement, amount: string): Said {
  return said(`${movement}_too_precise`, { amount })
}

/** How a resolution reads in the event log. */
export function resolutionMessage(
  movement: MoneyMovement,
  lenderShows: "done" | "nothing",
  amount: string,
  currency: string
): Said {
  return said(`resolved_${movement}_${lenderShows}`, { amount: money(amount, currency) })
}

/** A resolution as done that Medusa would not record: the record stays in doubt. */
export function medusaRefusedResolutionMessage(
  movement: MoneyMovement,
  reason: string,
  state: "in doubt" | "refused" = "in doubt"
): Said {
  return said(`medusa_refused_${movement}_resolution`, {
    reason: withoutFinalStop(reason),
    state: nested(said(state === "refused" ? "state_refused" : "state_in_doubt")),
  })
}

/** A lower layer's fact as a sentence: words it did not write are kept as they came, without a final stop. */
export function factOf(fact: Said | string): { said: Said } {
  return nested(typeof fact === "string" ? verbatim(withoutFinalStop(fact)) : fact)
}

function becauseOf(fact: Said | string | undefined): { said: Said } | undefined {
  return fact === undefined ? undefined : nested(said("because", { fact: factOf(fact) }))
}

function withoutFinalStop(text: string): string {
  return text.trim().replace(/[.;:]+$/, "")
}

/**
 * Why Medusa's own capture of a PayBright payment is turned away before anything is done: it asks
 * more than the payment may still capture for what the order owes now. Amounts in the lender's cents.
 */
export function captureAboveOwedMessage(asked: string, capturable: string, currency: string): Said {
  if (!MathBN.gt(capturable, 0)) return said("capture_nothing_owed")
  return said("capture_above_owed", { asked: money(asked, currency), capturable: money(capturable, currency) })
}

/** What a shopper reads who tries to open a PayBright application on a placed order's payment collection. */
export function orderBalanceNotFinancedMessage(): Said {
  return said("order_balance_not_financed")
}
