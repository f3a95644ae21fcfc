import { model } from "@medusajs/framework/utils"

/**
 * One row per contract the lender approved (`x_gateway_reference`), written when the approval is
 * verified and before the cart is completed, so that no approved contract is ever forgotten. It
 * ends `ordered` (an order exists), or `orphaned` with the reason no order could be placed. An
 * orphan is `voided` once the plugin voided its contract at the lender, or `handled` once an
 * admin says it was cancelled in the PayBright portal.
 */
export const PayBrightApproval = model
  .define("paybright_approval", {
    id: model.id({ prefix: "pbapr" }).primaryKey(),
    /** The lender's contract key (x_gateway_reference). */
    contract: model.text().unique(),
    /** The payment session the contract was applied for (x_reference). */
    session_id: model.text().index(),
    /** The payment provider registration the approval was verified for (pp_paybright_<id>). */
    provider_id: model.text().nullable(),
    cart_id: model.text().index().nullable(),
    order_id: model.text().index().nullable(),
    /** The approved amount exactly as the lender signed it, two decimals. */
    amount: model.text(),
    currency_code: model.text(),
    state: model.enum(["approved", "ordered", "orphaned", "voided", "handled"]).default("approved"),
    /**
     * The lender's signed result as it arrived (x_ fields only: no secret, no card data), so the
     * store can deliver it to itself again when the lender stops (see sweepUnplacedApprovals).
     */
    lender_result: model.json().nullable(),
    /** Why an orphan has no order: session_replaced, cart_changed, completion_failed, not_placed, … */
    reason: model.text().nullable(),
    /**
     * For an approval the store gave up placing (`not_placed`): what its last attempt answered, in
     * Medusa's words, for the merchant to read. Never a secret: completions carry none.
     */
    placement_error: model.text().nullable(),
    /**
     * The channel the approval was verified under (capture mode, card processor, environment and
     * account: see PaymentChannel), so that its void goes through that channel whatever the
     * settings say later; absent on older rows.
     */
    channel: model.json().nullable(),
    /**
     * When the contract's virtual card was retrieved, which proves the approval (the card exists
     * only for a completed contract): the cart's completion then has nothing to fetch.
     */
    card_confirmed_at: model.dateTime().nullable(),
    /** The admin who marked the orphan handled, and when. */
    handled_by: model.text().nullable(),
    handled_at: model.dateTime().nullable(),
  })
  .indexes([
    {
      // One live approval per payment session: the one its payment is authorized on. A second is
      // recorded as an orphan, whichever delivery writes first (see recordVerifiedApproval).
      name: "IDX_paybright_approval_one_open_per_session",
      on: ["session_id"],
      unique: true,
      where: "deleted_at IS NULL AND state IN ('approved', 'ordered')",
    },
  ])
