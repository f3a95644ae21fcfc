/**
 * Every sentence the plugin tells a merchant, in English, by code: the server writes its logs, its
 * rows' `message` and its errors from these, and the admin writes them when its language is
 * English. `{{name}}` takes a value: words as they are, an amount, or a sentence of its own.
 */
export const EN_TEXTS: Record<string, string> = {
  verbatim: "{{text}}",
  because: " ({{fact}})",
  where_paybright: "on PayBright contract {{contract}}",
  where_card: "on the virtual card of PayBright contract {{contract}} through {{via}}",
  check_processor_too: " and the payment in {{via}}",

  // A capture, refund or void as it ended.
  capture_done: "Captured {{amount}} {{where}}.",
  refund_done: "Refunded {{amount}} {{where}}.",
  capture_refused:
    "The capture of {{amount}} {{where}} was not made{{because}}; nothing moved, so fix the cause and try again.",
  refund_refused:
    "The refund of {{amount}} {{where}} was not made{{because}}; nothing moved, so fix the cause and try again.",
  capture_in_doubt:
    "The capture of {{amount}} {{where}} may have been made{{because}}; check the contract in the PayBright portal{{check_too}}, then resolve this record as captured or not, before anything else is captured or refunded on this payment.",
  refund_in_doubt:
    "The refund of {{amount}} {{where}} may have been made{{because}}; check the contract in the PayBright portal{{check_too}}, then resolve this record as refunded or not, before anything else is captured or refunded on this payment.",
  void_done: "Voided PayBright contract {{contract}} ({{amount}}): the shopper's loan is cancelled.",
  void_refused:
    "PayBright contract {{contract}} ({{amount}}) was not voided{{because}}; the shopper's loan is still live, so fix the cause and retry the void, or cancel the contract in the PayBright portal and resolve this record as voided.",
  void_in_doubt:
    "PayBright contract {{contract}} ({{amount}}) may have been voided{{because}}; check the contract in the PayBright portal, then resolve this record as voided or not.",

  // The ledgers parted for a reason of Medusa's own.
  capture_removed_by_medusa:
    "The capture of {{amount}} on PayBright contract {{contract}} was made at PayBright, but Medusa removed its own record of it after a failure of its own, so Medusa does not count it; check the contract in the PayBright portal, then resolve this record as captured or not, before anything else is captured or refunded on this payment.",
  refund_removed_by_medusa:
    "The refund of {{amount}} on PayBright contract {{contract}} was made at PayBright, but Medusa removed its own record of it after a failure of its own, so Medusa does not count it; check the contract in the PayBright portal, then resolve this record as refunded or not, before anything else is captured or refunded on this payment.",
  capture_outcome_lost_removed_by_medusa:
    "The capture of {{amount}} on PayBright contract {{contract}} was sent and may have been made at PayBright, but its outcome was never written and Medusa removed its own record of it, so Medusa does not count it; check the contract in the PayBright portal, then resolve this record as captured or not, before anything else is captured or refunded on this payment.",
  refund_outcome_lost_removed_by_medusa:
    "The refund of {{amount}} on PayBright contract {{contract}} was sent and may have been made at PayBright, but its outcome was never written and Medusa removed its own record of it, so Medusa does not count it; check the contract in the PayBright portal, then resolve this record as refunded or not, before anything else is captured or refunded on this payment.",
  capture_unexplained_in_medusa:
    "Medusa counts a capture of {{amount}} on PayBright contract {{contract}} that no PayBright record explains; check the contract in the PayBright portal, then resolve this record as captured or not, before anything else is captured or refunded on this payment.",
  refund_unexplained_in_medusa:
    "Medusa counts a refund of {{amount}} on PayBright contract {{contract}} that no PayBright record explains; check the contract in the PayBright portal, then resolve this record as refunded or not, before anything else is captured or refunded on this payment.",

  // What stops a movement or a cancellation.
  a_capture: "A capture",
  a_refund: "A refund",
  a_void: "A void",
  the_capture: "the capture",
  the_refund: "the refund",
  the_void: "the void",
  blocked_by_doubt:
    "{{movement}} of {{amount}} on PayBright contract {{contract}} is in doubt; resolve it in the order's PayBright panel (captured or not, as the PayBright portal shows) before capturing or refunding again.",
  cancel_blocked_in_doubt:
    "Not cancelled: {{movement}} of {{amount}} on PayBright contract {{contract}} is in doubt (record {{record}}); resolve it in the order's PayBright panel as the PayBright portal shows, then cancel again.",
  cancel_blocked_running:
    "Not cancelled: {{movement}} of {{amount}} on PayBright contract {{contract}} is still running (record {{record}}); wait until it ends, then cancel again.",
  capture_not_started:
    "The capture could not be started ({{fact}}); nothing moved, so retry it from the order's PayBright panel.",
  refund_not_started:
    "The refund could not be started ({{fact}}); nothing moved, so retry it from the order's PayBright panel.",
  void_not_started:
    "The void could not be started ({{fact}}); nothing moved, so retry it from the order's PayBright panel.",
  server_stopped_before: "the server may have stopped before it began",
  call_never_finished: "the call never finished; the server may have stopped during it",
  request_invalid: "the request was invalid and was not sent",
  parcel_payment_replaced:
    "This parcel ({{amount}}) was not captured because Medusa had just replaced the order's payment after an order change; PayBright contract {{contract}} carries on in the new payment, so retry the capture from the order's PayBright panel.",
  capture_too_precise:
    "The capture amount {{amount}} has fractions of a cent and is not everything that remains, and PayBright moves whole cents; enter an amount in cents, or capture everything that remains.",
  refund_too_precise:
    "The refund amount {{amount}} has fractions of a cent and is not everything that remains, and PayBright moves whole cents; enter an amount in cents, or refund everything that remains.",

  // Order changes.
  contract_carried:
    "The order changed, so Medusa replaced its payment; PayBright contract {{contract}} carries on with {{amount}} still to be captured from the new payment.",
  contract_carried_uncovered:
    "The order changed, so Medusa replaced its payment; PayBright contract {{contract}} carries on with {{amount}} still to be captured from the new payment. At that moment the order owed {{uncovered}} more, which is above what the contract covers: collect it another way (Medusa's payment link, or mark it as paid); the list “PayBright: needs attention” keeps what is still left to collect up to date.",
  above_the_loan:
    "The order now totals more than PayBright contract {{contract}} covers: collect the remaining {{amount}} another way (Medusa's payment link, or mark it as paid).",

  // A person's answer to a record.
  resolved_capture_done:
    "Resolved: PayBright shows the capture of {{amount}}; recorded in Medusa without calling PayBright again.",
  resolved_refund_done:
    "Resolved: PayBright shows the refund of {{amount}}; recorded in Medusa without calling PayBright again.",
  resolved_capture_nothing: "Resolved: PayBright shows no capture of {{amount}}; a new attempt is allowed.",
  resolved_refund_nothing: "Resolved: PayBright shows no refund of {{amount}}; a new attempt is allowed.",
  resolved_void_done: "Resolved: PayBright shows the contract ({{amount}}) cancelled, so the shopper carries no loan.",
  resolved_void_nothing: "Resolved: PayBright shows the contract ({{amount}}) still live; retry the void.",
  medusa_refused_capture_resolution:
    "Medusa refused to record this capture ({{reason}}), so the record stays {{state}} and nothing was recorded; if PayBright captured it, refund it in the PayBright portal, then resolve this record as not captured.",
  medusa_refused_refund_resolution:
    "Medusa refused to record this refund ({{reason}}), so the record stays {{state}} and nothing was recorded; fix what Medusa names, then resolve it again.",
  medusa_refused_void_resolution:
    "Medusa refused to record this void ({{reason}}), so the record stays {{state}} and nothing was recorded; fix what Medusa names, then resolve it again.",
  state_in_doubt: "in doubt",
  state_refused: "refused",

  // What the lender answered.
  op_capture: "capture",
  op_refund: "refund",
  op_void: "void",
  lender_words: ": {{text}}",
  lender_rejected: "PayBright refused the {{operation}}{{words}}",
  lender_unauthorized: "PayBright did not accept the API key and token for the {{operation}}",
  lender_not_found: "PayBright does not know this contract ({{operation}}){{words}}",
  lender_rate_limited: "PayBright turned the {{operation}} away as too many requests",
  lender_unavailable: "PayBright failed while answering the {{operation}}{{words}}",
  lender_unexpected_status: "PayBright answered the {{operation}} in a way it does not document{{words}}",
  lender_timeout: "PayBright did not answer in time for the {{operation}}",
  lender_unreachable: "PayBright could not be reached; nothing was sent for the {{operation}}",
  lender_dropped: "PayBright dropped the connection for the {{operation}}",

  // Approvals.
  approval_verified: "PayBright approved contract {{contract}} for {{amount}}.",
  approval_voided: "Contract {{contract}} ({{amount}}) was voided at PayBright: the shopper's loan is cancelled.",
  approval_handled: "Contract {{contract}} was marked as cancelled in the PayBright portal.",
  orphan: "PayBright contract {{contract}} ({{amount}}) has no order: {{why}}{{last_answer}}. {{todo}}",
  orphan_last_answer: " (its last attempt answered: {{text}})",
  orphan_voided_after:
    "The plugin voids it at PayBright after {{at}} UTC, cancelling the shopper's loan; nothing to do unless that fails.",
  orphan_cancel_in_portal: "Cancel it in the PayBright portal, then mark it handled.",
  orphan_session_replaced: "the shopper's checkout started a new payment before this approval came back",
  orphan_cart_changed: "the cart changed while the shopper applied, so the approval no longer matches it",
  orphan_completion_failed: "the cart could not become an order (for example, an item went out of stock)",
  orphan_not_placed:
    "the store could not place its order within the grace period, though nothing about the cart refused it",
  orphan_payment_cancelled:
    "Medusa cancelled its payment while the order was being placed (a step of the completion failed), and no order may stand on a cancelled payment",
  orphan_card_unavailable: "PayBright did not show the contract's virtual card within the grace period",
  orphan_second_contract: "it is a second contract for a checkout that already has one",
  orphan_request_fields:
    "PayBright signed a result carrying fields only a request has, which the store does not trust to place an order",
  orphan_test_mismatch:
    "PayBright signed a result whose test flag is not the store's (a sandbox result in production, or the reverse)",
  orphan_unknown_result: "PayBright signed a result this store does not know how to read",
  orphan_auto_capture_account:
    'PayBright set this account up for auto-capture; in-store capture needs "authorization" results (ask PayBright to set the account to separate authorization and capture)',
  orphan_unknown: "no order could be placed for it",

  // The timeline's lines for records the event log has no row of.
  approval_verified_line: "Approval verified: contract {{contract}} for {{amount}}.",
  capture_line_done: "Capture of {{amount}} {{when}}: done.",
  refund_line_done: "Refund of {{amount}} {{when}}: done.",
  void_line_done: "Void of {{amount}} {{when}}: done.",
  capture_line_refused: "Capture of {{amount}} {{when}} refused: {{why}}",
  refund_line_refused: "Refund of {{amount}} {{when}} refused: {{why}}",
  void_line_refused: "Void of {{amount}} {{when}} refused: {{why}}",
  capture_line_in_doubt: "Capture of {{amount}} {{when}} in doubt: {{why}}",
  refund_line_in_doubt: "Refund of {{amount}} {{when}} in doubt: {{why}}",
  void_line_in_doubt: "Void of {{amount}} {{when}} in doubt: {{why}}",
  capture_line_pending: "Capture of {{amount}} {{when}} in progress.",
  refund_line_pending: "Refund of {{amount}} {{when}} in progress.",
  void_line_pending: "Void of {{amount}} {{when}} in progress.",
  line_from_admin: "from the admin",
  line_at_shipment: "at shipment",
  line_at_fulfillment: "at fulfillment",
  line_at_order_canceled: "at order_canceled",
  line_at_orphan: "at orphan",
  line_at_retry: "at retry",
  no_reason_given: "no reason given",
  check_the_portal: "check the PayBright portal",
  attention_in_doubt: "In doubt: check the PayBright portal, then resolve it.",
  attention_refused: "Refused.",

  // A retry of a capture that finds nothing to do.
  retry_capture_already_made: "This capture is already made; there is nothing to retry.",
  retry_capture_running: "This capture is still running; there is nothing to retry.",
  retry_capture_already_retried: "This capture was already retried; retry the newest attempt instead.",
  retry_capture_retried_done:
    "This capture was retried since, and the retry captured {{amount}}: the money is captured, and there is nothing to do.",
  retry_capture_made_good: "This capture's amount has already been captured since; there is nothing to retry.",
  capture_not_made: "The capture was not made.",
  contract_not_voided: "The contract was not voided.",
  payment_busy_capture:
    "The capture was not made: another capture or refund of this payment is running (it may have been started from a page that was since closed); nothing moved, so wait until it has ended, look at the order's PayBright panel, and try again if still needed.",
  payment_busy_refund:
    "The refund was not made: another capture or refund of this payment is running (it may have been started from a page that was since closed); nothing moved, so wait until it has ended, look at the order's PayBright panel, and try again if still needed.",
  order_busy:
    "The order was not cancelled: a capture or refund of its PayBright payment is running; nothing changed, so wait until it has ended, look at the order's PayBright panel, and cancel again.",
  capture_above_owed:
    "The capture was not made: {{asked}} is more than this PayBright payment may still capture for what the order owes now ({{capturable}}); nothing moved, so capture {{capturable}} or less.",
  capture_nothing_owed:
    "The capture was not made: the order owes nothing more that this PayBright payment may capture (an order change lowered what it owes); nothing moved, and there is nothing left to capture.",
  order_balance_not_financed:
    "PayBright finances an order once, at checkout: the balance of a placed order cannot be paid with a new PayBright application, so choose another way to pay or contact the store.",

  // A server or worker that cannot use the saved settings.
  process_worker: "The worker process {{pid}} on {{host}}",
  process_server: "The server process {{pid}} on {{host}}",
  process_plain: "The process {{pid}} on {{host}}",
  settings_unreadable_key:
    "{{process}} cannot use the PayBright settings saved for {{provider}} ({{fact}}), so it refuses every PayBright session, capture, refund and job; give every server and worker the same {{variable}} and restart them, and if that key changed since the secrets were saved, enter them again on Settings → PayBright.",
  settings_unreadable_invalid:
    "{{process}} cannot use the PayBright settings saved for {{provider}} ({{fact}}), so it refuses every PayBright session, capture, refund and job; correct them on Settings → PayBright, or medusa-config.ts, so that they fit together.",
  settings_key_no_key: "this process has no {{variable}} to decrypt the saved {{names}}",
  settings_key_short_key:
    "this process's {{variable}} is shorter than {{length}} characters to decrypt the saved {{names}}",
  settings_key_does_not_decrypt: "the saved {{names}} does not decrypt with this process's {{variable}}",
  card_revealed: "Virtual card ending {{last4}} revealed to charge {{amount}} on the store's terminal.",

  // Revealing a virtual card.
  card_charged_by:
    "This payment's card is charged by {{processor}}, the processor it was authorized under; only a card charged by a person (the manual processor) is ever revealed",
  card_charged_by_none:
    "This payment's card is charged by no card processor, the processor it was authorized under; only a card charged by a person (the manual processor) is ever revealed",
  card_payment_cancelled: "This payment is cancelled: its card is not revealed any more",
  card_nothing_left: "Everything authorized is captured: there is nothing left to charge on this card",
  medusa_failed_after_call: "the lender was called but Medusa's capture failed afterwards: {{error}}",
}
