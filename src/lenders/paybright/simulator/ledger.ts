import { formatAmount } from "../../../lib/texts/amount"
import type { IssuedCard } from "./virtual-card"

/**
 * The simulated lender's books: one contract per approved application, with its captures and
 * refunds. Pure state and rules, no HTTP. Amounts are cents in a BigInt.
 *
 * Spec §3 names PENDING, Complete and FINAL without saying which follows a capture. Read here:
 * a contract is PENDING until captured, Complete while partially captured, FINAL once the whole
 * authorized amount is captured. Refunds leave the status alone: the spec names no state for them.
 * VOIDED is the simulator's name for a contract cancelled by the order-management void
 * (protocol.md §6): only a PENDING contract can get there, and nothing moves on it afterwards.
 */
export type ContractStatus = "PENDING" | "Complete" | "FINAL" | "VOIDED"

export type Contract = {
  gatewayReference: string
  reference: string
  accountId: string
  currency: string
  test: boolean
  authorized: bigint
  status: ContractStatus
  captures: { reference: string; amount: bigint; at: string }[]
  refunds: { amount: bigint; at: string }[]
  card: IssuedCard
  /** When the contract was voided, if it was. */
  voidedAt?: string
}

/** A contract as the control API shows it: amounts as two-decimal strings, the card only by its last four digits. */
export type ContractView = {
  gateway_reference: string
  reference: string
  account_id: string
  currency: string
  test: boolean
  status: ContractStatus
  authorized: string
  captured: string
  refunded: string
  captures: { reference: string; amount: string; at: string }[]
  refunds: { amount: string; at: string }[]
  card_last4: string
  /** When the contract was voided; null while it is not. */
  voided_at: string | null
}

/** What has moved on a contract, kept to be put back later (`Ledger.restore`). */
export type ContractBooks = Pick<Contract, "gatewayReference" | "status" | "captures" | "refunds" | "voidedAt">

/** A request the ledger refuses; `status` is what the REST API answers. */
export class LedgerError extends Error {
  constructor(
    readonly status: 400 | 404,
    message: string
  ) {
    super(message)
  }
}

export class Ledger {
  private readonly contracts = new Map<string, Contract>()
  private nextReference = 51325

  open(input: Omit<Contract, "gatewayReference" | "status" | "captures" | "refunds" | "voidedAt">): Contract {
    const contract: Contract = {
      ...input,
      gatewayReference: String(this.nextReference++),
      status: "PENDING",
      captures: [],
      refunds: [],
    }
    this.contracts.set(contract.gatewayReference, contract)
    return contract
  }

  /** A number for a declined application: the lender still names one. */
  allocateReference(): string {
    return String(this.nextReference++)
  }

  get(gatewayReference: string): Contract | undefined {
    return this.contracts.get(gatewayReference)
  }

  /** A copy of what has moved on a contract so far. */
  books(gatewayReference: string): ContractBooks {
    const contract = this.get(gatewayReference)
    if (!contract) throw new LedgerError(404, `no contract ${gatewayReference}`)
    return { gatewayReference, ...this.copy(contract) }
  }

  /** Puts a contract's books back as `books` kept them: what moved on it since is undone. */
  restore(books: ContractBooks): void {
    const contract = this.get(books.gatewayReference)
    if (!contract) throw new LedgerError(404, `no contract ${books.gatewayReference}`)
    Object.assign(contract, this.copy(books))
  }

  private copy(books: Omit<ContractBooks, "gatewayReference">): Omit<ContractBooks, "gatewayReference"> {
    return {
      status: books.status,
      captures: books.captures.map((capture) => ({ ...capture })),
      refunds: books.refunds.map((refund) => ({ ...refund })),
      voidedAt: books.voidedAt,
    }
  }

  /** The contract a virtual card was issued for, as the card network reports it by card number. */
  byCardNumber(pan: string): Contract | undefined {
    return [...this.contracts.values()].find((contract) => contract.card.pan === pan)
  }

  /** The latest contract opened for a merchant reference (a store may apply again after a decline). */
  byReference(reference: string): Contract | undefined {
    return this.all()
      .reverse()
      .find((contract) => contract.reference === reference)
  }

  all(): Contract[] {
    return [...this.contracts.values()]
  }

  captured(contract: Contract): bigint {
    return contract.captures.reduce((sum, capture) => sum + capture.amount, 0n)
  }

  refunded(contract: Contract): bigint {
    return contract.refunds.reduce((sum, refund) => sum + refund.amount, 0n)
  }

  /**
   * Captures `amount`. Each in-store call is a new capture, as the spec promises nothing about
   * repeats. A card transaction passes its processor's id as `dedupe`: the card network reports a
   * charge once, so a repeat of it is the same capture, and the same id with another amount is
   * refused.
   */
  capture(contract: Contract, amount: bigint, dedupe?: string): { repeated: boolean } {
    refuseIfVoided(contract, "nothing can be captured on it")
    // Checked before the remaining amount: the repeat of a full capture would otherwise "exceed" it.
    const previous = dedupe ? contract.captures.find((capture) => capture.reference === dedupe) : undefined
    if (previous) {
      if (previous.amount !== amount) {
        throw new LedgerError(400, `${dedupe} was already used for a capture of ${formatAmount(previous.amount)}`)
      }
      return { repeated: true }
    }
    if (amount <= 0n) {
      throw new LedgerError(400, "x_amount must be greater than zero")
    }
    const remaining = contract.authorized - this.captured(contract)
    if (amount > remaining) {
      throw new LedgerError(
        400,
        `x_amount ${formatAmount(amount)} exceeds the amount remaining to capture (${formatAmount(remaining)})`
      )
    }
    contract.captures.push({ reference: dedupe ?? contract.reference, amount, at: new Date().toISOString() })
    contract.status = this.captured(contract) === contract.authorized ? "FINAL" : "Complete"
    return { repeated: false }
  }

  /** Records a refund; each call is a new refund, as the lender documents no idempotency key. */
  refund(contract: Contract, amount: bigint): void {
    refuseIfVoided(contract, "nothing was captured to refund")
    if (amount <= 0n) {
      throw new LedgerError(400, "Amount must be greater than zero")
    }
    const refundable = this.captured(contract) - this.refunded(contract)
    if (amount > refundable) {
      throw new LedgerError(
        400,
        `Amount ${formatAmount(amount)} exceeds the captured amount not yet refunded (${formatAmount(refundable)})`
      )
    }
    contract.refunds.push({ amount, at: new Date().toISOString() })
  }

  /**
   * Voids a contract (protocol.md §6): it must be PENDING, never captured, and the amount must be
   * the whole authorized amount, as the lender has no partial voids. A second void is refused.
   */
  void(contract: Contract, amount: bigint): void {
    refuseIfVoided(contract, "it cannot be voided again")
    if (contract.captures.length > 0) {
      throw new LedgerError(
        400,
        `contract ${contract.gatewayReference} has captures (${formatAmount(this.captured(contract))}); a captured contract cannot be voided, refund it instead`
      )
    }
    if (amount !== contract.authorized) {
      throw new LedgerError(
        400,
        `x_amount ${formatAmount(amount)} is not the authorized amount ${formatAmount(contract.authorized)}; there are no partial voids`
      )
    }
    contract.status = "VOIDED"
    contract.voidedAt = new Date().toISOString()
  }

  /**
   * A transaction the card network reports on a contract's virtual card (spec §1.5, §6.2): the
   * lender captures or adjusts the contract. Charges repeat by reference like in-store captures.
   */
  cardTransaction(event: { pan: string; kind: "charge" | "refund"; amount: bigint; reference: string }): Contract {
    const contract = this.byCardNumber(event.pan)
    if (!contract) {
      throw new LedgerError(404, "the card network reported a card this lender did not issue")
    }
    // The card is cancelled with its contract: the issuer declines whatever is tried on it.
    refuseIfVoided(contract, "its virtual card was cancelled and declines every transaction")
    if (event.kind === "charge") {
      this.capture(contract, event.amount, event.reference)
    } else {
      this.refund(contract, event.amount)
    }
    return contract
  }

  /** What the control API shows: never the card number or security code. */
  view(contract: Contract): ContractView {
    return {
      gateway_reference: contract.gatewayReference,
      reference: contract.reference,
      account_id: contract.accountId,
      currency: contract.currency,
      test: contract.test,
      status: contract.status,
      authorized: formatAmount(contract.authorized),
      captured: formatAmount(this.captured(contract)),
      refunded: formatAmount(this.refunded(contract)),
      captures: contract.captures.map((capture) => ({ ...capture, amount: formatAmount(capture.amount) })),
      refunds: contract.refunds.map((refund) => ({ ...refund, amount: formatAmount(refund.amount) })),
      card_last4: contract.card.pan.slice(-4),
      voided_at: contract.voidedAt ?? null,
    }
  }
}

function refuseIfVoided(contract: Contract, consequence: string) {
  if (contract.status === "VOIDED") {
    throw new LedgerError(400, `contract ${contract.gatewayReference} was voided; ${consequence}`)
  }
}
