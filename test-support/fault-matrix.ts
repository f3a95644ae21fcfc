import { FAULT_ACTS, type FaultKind, type VoidFaultKind } from "../src/lenders/paybright/simulator"
import type { StripeFaultKind } from "./fake-stripe"

/**
 * What the plugin decides for each fault of the simulator's matrix: the failure table of docs/money.md
 * in code, asserted by the unit and integration suites.
 */
export const EXPECTED_OUTCOME: Record<FaultKind, "refused" | "in_doubt"> = {
  slow: "in_doubt",
  reset_before_read: "in_doubt",
  reset_after_read: "in_doubt",
  status_500: "in_doubt",
  status_502: "in_doubt",
  status_503: "in_doubt",
  rate_limited: "refused",
  unauthorized: "refused",
  bad_request: "refused",
  malformed_json: "in_doubt",
  html_error: "in_doubt",
  missing_field: "in_doubt",
  echo_mismatch: "in_doubt",
}

/**
 * What the lender client decides for each fault of a void: as for capture and refund, and a 200
 * whose signature does not verify is in doubt (the lender may have voided).
 */
export const VOID_EXPECTED_OUTCOME: Record<VoidFaultKind, "refused" | "in_doubt"> = {
  ...EXPECTED_OUTCOME,
  bad_signature: "in_doubt",
}

/** The same for the fake Stripe's charge and refund, after Stripe's client has retried. */
export const STRIPE_EXPECTED_OUTCOME: Record<StripeFaultKind, "refused" | "in_doubt"> = {
  ...EXPECTED_OUTCOME,
  processing: "in_doubt",
  requires_action: "refused",
}

/** Whether Stripe charged or refunded before the fault showed. */
export const STRIPE_FAULT_ACTS: Record<StripeFaultKind, boolean> = {
  ...FAULT_ACTS,
  processing: true,
  requires_action: false,
}
