import { releaseLockStep } from "@medusajs/core-flows"
import { createWorkflow, transform, when, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import type { OrphanReason } from "../modules/paybright/approval-reasons"
import { approvalLockKey } from "../lib/cart-lock"
import { completionLeaseSeconds, lockTtlSeconds } from "../lib/lock-lease"
import type { ApprovalRecord } from "../lib/approval-record"
import {
  afterPlacement,
  decide,
  needs,
  nextStep,
  outcomeOfApproval,
  type ApplicationResultOutcome,
  type LenderResultFacts,
  type NextStep,
  type PlacementFailure,
  type RegistrationFacts,
  type VerifiedResult,
} from "../lib/lender-result-decision"
import { lockOwnerStep } from "./steps/lock-owner"
import { acquireLockOrConflictStep } from "./steps/acquire-lock-or-conflict"
import { readApprovalOfContractStep } from "./steps/read-approval-of-contract"
import { readCartCountryStep } from "./steps/read-cart-country"
import { retrieveVirtualCardStep } from "./steps/retrieve-virtual-card"
import { readCheckoutStep } from "./steps/read-checkout"
import { readCartOfCollectionStep } from "./steps/read-cart-of-collection"
import { readSessionApprovalStep } from "./steps/read-session-approval"
import { readCompletionRunningStep } from "./steps/read-completion-running"
import { readOrderPaymentsStep } from "./steps/read-order-payments"
import { markPlacedApprovalStep } from "./steps/mark-placed-approval"
import { updatePayBrightSessionWorkflow } from "./update-session"
import { recordApprovalWorkflow } from "./record-approval"
import { placeApprovalWorkflow } from "./place-approval"
import { orphanUnplacedApprovalWorkflow } from "./orphan-unplaced-approval"
import { orphanApprovalWorkflow } from "./orphan-approval"
import { markApprovalOrderedWorkflow } from "./mark-approval-ordered"

export const processLenderResultWorkflowId = "paybright-process-lender-result-workflow"

export type ProcessLenderResultInput = {
  /** A result whose signature verified, with the registration that signed it. */
  result: VerifiedResult
  signer: RegistrationFacts
  /** Every PayBright registration in force (a session may belong to another than the signer). */
  registrations: RegistrationFacts[]
  /** Why the signed result cannot be used at all, if it cannot. */
  unusable: OrphanReason | null
  /** The checkout the URL's return token names, when this store sealed it. */
  token?: { session_id: string; payment_collection_id: string } | null
  /** Seconds to wait for the cart's lock when another request is completing the cart. */
  lock_timeout: number
  /** The clock grace periods are measured by (the sweep's, which a test may set ahead). */
  now: number
  /** This delivery's earlier placement, when it failed (see handleApplicationResult). */
  failure?: PlacementFailure | null
}

export type ProcessLenderResultOutput = {
  outcome: ApplicationResultOutcome
  /** The placement failed (its error is the run's): the delivery decides again with it as a fact. */
  placement_failed: boolean
}

/**
 * A verified lender result, delivered by the lender's callback, the shopper's return or the
 * unplaced-approvals sweep, comes to one outcome. The facts are read first (each read only when
 * the rules need it), `decide` turns them into one action, and `when` branches run it. Repeats are
 * harmless: each delivery does again what is not decided yet.
 *
 * **An unusable result.** Signed by the lender but carrying request fields, the wrong test flag or
 * an unknown result: recorded as an orphan for the merchant, never an order.
 *
 * **A repeat of an order.** The contract's row says ordered, for this session and registration:
 * answered from the row and the cart's country alone.
 *
 * **A decline or a pending result.** Handed to its session when the session matches (amount,
 * currency), is not authorized and holds no approval; answered either way.
 *
 * **An approval without its session.** The session is gone or belongs to another account: an
 * orphan, `cart_changed` when the return token leads to a cart of another amount, otherwise
 * `session_replaced`; a row recorded while the session lived is orphaned.
 *
 * **An approval that cannot become an order.** The amount or currency changed (`cart_changed`),
 * the session has no cart (`completion_failed`), or an auto-capture account's result meets a store
 * that captures at shipment (`auto_capture_account`): recorded as an orphan.
 *
 * **A cart that already has an order.** Read once no completion holds the cart: this approval's
 * order when a live payment holds its contract (marked ordered), a second contract when another
 * pays it. An order without a payment is placed again (the placement undoes what a completion cut
 * short left).
 *
 * **The placement.** The approval is recorded first (the table keeps one row per contract and one
 * live approval per session, whoever writes first), then placeApprovalWorkflow completes the cart
 * as the Store API does, under the cart's lock; once the lock is given back the row is marked
 * ordered when the order is its own. A lock held elsewhere fails the placement with a CONFLICT:
 * the approval stays recorded and the delivery answers "processing", so the lender delivers again
 * (and the sweep comes back); nothing waits for the other request's order inside this one.
 *
 * **A virtual card.** A first delivery retrieves the card (which proves the approval) before the
 * lock; without it, the cart is not completed and the approval waits for its card.
 *
 * **A placement that failed.** Decided on the delivery's second run, from the error's type: within
 * the grace period (virtualCardGraceMinutes) a late card or a passing failure answers
 * "processing"; past it, or when Medusa refused the cart itself, the approval is given up under
 * the cart's lock (orphanUnplacedApprovalWorkflow): `card_unavailable`, `cart_changed`,
 * `payment_cancelled`, `completion_failed`, or `not_placed` kept for a person with its last error.
 */
export const processLenderResultWorkflow = createWorkflow(
  processLenderResultWorkflowId,
  (input: ProcessLenderResultInput) => {
    const base = transform({ input }, ({ input }): LenderResultFacts => ({
      result: input.result,
      signer: input.signer,
      registrations: input.registrations,
      unusable: input.unusable,
      failure: input.failure ?? undefined,
      now: input.now,
    }))

    // The reads, in the order the rules need them.
    const known = when("paybright-needs-known-approval", { base }, ({ base }) => needs.known(base)).then(() =>
      readApprovalOfContractStep({ contract: input.result.contract })
    )
    const withKnown = transform({ base, known }, ({ base, known }) => ({ ...base, known: known ?? undefined }))
    const knownCountry = when("paybright-needs-known-country", { withKnown }, ({ withKnown }) =>
      needs.knownCountry(withKnown)
    ).then(() =>
      readCartCountryStep(transform({ withKnown }, ({ withKnown }) => ({ cart_id: withKnown.known!.cart_id ?? null })))
    )
    const card = when("paybright-needs-card", { withKnown }, ({ withKnown }) => needs.card(withKnown)).then(() =>
      retrieveVirtualCardStep({ provider_id: input.signer.provider_id, contract: input.result.contract })
    )
    const checkout = when("paybright-needs-checkout", { withKnown }, ({ withKnown }) => needs.checkout(withKnown)).then(
      () => readCheckoutStep({ session_id: input.result.session_id })
    )
    const withCheckout = transform(
      { withKnown, knownCountry, card, checkout },
      ({ withKnown, knownCountry, card, checkout }): LenderResultFacts => ({
        ...withKnown,
        known_country: knownCountry ?? undefined,
        card: card ?? undefined,
        checkout: checkout ?? undefined,
      })
    )
    const tokenCart = when("paybright-needs-token-cart", { withCheckout, input }, ({ withCheckout, input }) =>
      needs.tokenCart(withCheckout, input.token)
    ).then(() => readCartOfCollectionStep({ payment_collection_id: input.token!.payment_collection_id }))
    const sessionApproval = when("paybright-needs-session-approval", { withCheckout }, ({ withCheckout }) =>
      needs.sessionApproval(withCheckout)
    ).then(() => readSessionApprovalStep({ session_id: input.result.session_id }))
    const collection = transform({ withCheckout }, ({ withCheckout }) => ({
      payment_collection_id: withCheckout.checkout?.session.payment_collection_id ?? "",
      order_id: withCheckout.checkout?.orderId ?? "",
    }))
    const running = when("paybright-needs-completion-running", { withCheckout }, ({ withCheckout }) =>
      needs.completionRunning(withCheckout)
    ).then(() => readCompletionRunningStep({ payment_collection_id: collection.payment_collection_id }))
    const withRunning = transform(
      { withCheckout, tokenCart, sessionApproval, running },
      ({ withCheckout, tokenCart, sessionApproval, running }): LenderResultFacts => ({
        ...withCheckout,
        token_cart: tokenCart ?? undefined,
        session_has_approval: sessionApproval ?? undefined,
        completion_running: running ?? undefined,
      })
    )
    const payments = when("paybright-needs-order-payments", { withRunning }, ({ withRunning }) =>
      needs.orderPayments(withRunning)
    ).then(() => readOrderPaymentsStep(collection))

    // The decision.
    const action = transform({ withRunning, payments }, ({ withRunning, payments }) =>
      decide({ ...withRunning, order_payments: payments ?? undefined })
    )

    when("paybright-result-to-session", { action }, ({ action }) => action.kind === "record_on_session").then(() => {
      updatePayBrightSessionWorkflow.runAsStep({
        input: transform({ action, input }, ({ action, input }) => ({
          session_id: action.kind === "record_on_session" ? action.session_id : "",
          data: { lender_result: input.result.fields },
        })),
      })
    })
    const recorded = when(
      "paybright-record-approval",
      { action },
      ({ action }) => action.kind === "approval" && !!action.record
    ).then(() =>
      recordApprovalWorkflow.runAsStep({
        input: transform({ action }, ({ action }) => (action.kind === "approval" ? action.record! : (null as never))),
      })
    )
    const step = transform({ action, recorded, withKnown, input }, ({ action, recorded, withKnown, input }) =>
      nextStep(action, (recorded?.approval as ApprovalRecord | undefined) ?? withKnown.known, input.now)
    )

    // Under the cart's lock: the placement (which takes it itself), or giving the approval up.
    const lock = transform({ action, step }, ({ action, step }) => ({
      // The placement takes the cart's lock itself (see placeApprovalWorkflow).
      locked: step.kind === "orphan_unplaced",
      // Never `key`: the workflow engine's proxies keep that name for themselves.
      lock_key:
        action.kind === "approval" ? approvalLockKey({ cart_id: action.cart_id, session_id: action.session_id }) : "",
      // As long as Medusa's own completion or the virtual card's read, whichever is longer.
      ttl: step.kind === "place" ? completionLeaseSeconds() : lockTtlSeconds(),
    }))
    const owner = when("paybright-lock-cart", { lock }, ({ lock }) => lock.locked).then(() => {
      const made = lockOwnerStep({ key: lock.lock_key })
      acquireLockOrConflictStep({ key: lock.lock_key, owner: made, timeout: input.lock_timeout, ttl: lock.ttl })
      return made
    })
    const placed = when("paybright-place", { step }, ({ step }) => step.kind === "place").then(() =>
      placeApprovalWorkflow
        .runAsStep({
          input: transform({ action, step, lock, input }, ({ action, step, lock, input }) => ({
            cart_id: action.kind === "approval" ? action.cart_id! : "",
            session_id: action.kind === "approval" ? action.session_id : "",
            approval_id: step.kind === "place" ? step.approval_id : "",
            lease_seconds: lock.ttl,
            lock_timeout: input.lock_timeout,
          })),
        })
        // Its error is the run's: the delivery decides again, from its type (see handleApplicationResult).
        .config({ continueOnPermanentFailure: true })
    )
    const givenUp = when("paybright-give-up", { step }, ({ step }) => step.kind === "orphan_unplaced").then(() =>
      orphanUnplacedApprovalWorkflow
        .runAsStep({
          input: transform({ action, step, input }, ({ action, step, input }) => {
            const unplaced = step as Extract<NextStep, { kind: "orphan_unplaced" }>
            return {
              approval_id: unplaced.approval_id,
              cart_id: action.kind === "approval" ? action.cart_id : null,
              session_id: action.kind === "approval" ? action.session_id : "",
              reason: unplaced.reason,
              placement_error: unplaced.placement_error,
              lock_timeout: input.lock_timeout,
            }
          }),
        })
        // Not decided now (the session could not be updated): the next delivery decides.
        .config({ continueOnPermanentFailure: true })
    )
    when("paybright-unlock-cart", { lock }, ({ lock }) => lock.locked).then(() => {
      releaseLockStep({ key: lock.lock_key, ownerId: owner })
    })
    // Last, once the cart is given back: until then a failure (of giving it back) makes Medusa undo
    // the order, and a row already saying ordered would send the shopper's return to it.
    const marked = when("paybright-mark-placed", { placed }, ({ placed }) => !!placed?.id).then(() =>
      markPlacedApprovalStep(
        transform({ placed, step, action }, ({ placed, step, action }) => ({
          approval_id: step.kind === "place" ? step.approval_id : "",
          contract: step.kind === "place" ? step.contract : "",
          order_id: placed!.id,
          payment_collection_id: action.kind === "approval" ? action.payment_collection_id! : "",
        }))
      )
    )

    // What follows: a placement's order, an approval orphaned or marked ordered.
    const decided = transform({ step, placed, marked, action }, ({ step, placed, marked, action }): NextStep => {
      if (step.kind !== "place") return step
      const countryCode = action.kind === "approval" ? action.country_code : undefined
      if (!placed?.id || !marked) return { kind: "answer", outcome: { kind: "processing", countryCode } }
      return afterPlacement(step, { order_id: placed.id, ...marked }, countryCode)
    })
    const orphaned = when("paybright-orphan", { decided }, ({ decided }) => decided.kind === "orphan").then(() =>
      orphanApprovalWorkflow.runAsStep({
        input: transform({ decided }, ({ decided }) => decided as { approval_id: string; reason: OrphanReason }),
      })
    )
    when("paybright-mark-ordered", { decided }, ({ decided }) => decided.kind === "mark_ordered").then(() => {
      markApprovalOrderedWorkflow.runAsStep({
        input: transform({ decided }, ({ decided }) => decided as { approval_id: string; order_id: string }),
      })
    })

    const answer = transform(
      { decided, orphaned, givenUp, placed, step, action },
      ({ decided, orphaned, givenUp, placed, step, action }): ProcessLenderResultOutput => {
        const countryCode = action.kind === "approval" ? action.country_code : undefined
        const placement_failed = step.kind === "place" && !placed?.id
        switch (decided.kind) {
          case "answer":
            return { outcome: decided.outcome, placement_failed }
          case "orphan":
            return { outcome: outcomeOfApproval(orphaned as ApprovalRecord, countryCode), placement_failed }
          case "mark_ordered":
            return { outcome: { kind: "placed", orderId: decided.order_id, countryCode }, placement_failed }
          case "orphan_unplaced":
            return {
              outcome: givenUp
                ? outcomeOfApproval(givenUp as ApprovalRecord, countryCode)
                : { kind: "processing", countryCode },
              placement_failed,
            }
          default:
            return { outcome: { kind: "processing", countryCode }, placement_failed }
        }
      }
    )
    return new WorkflowResponse(answer)
  }
)
