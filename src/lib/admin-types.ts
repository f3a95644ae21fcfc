import type { Said } from "./texts/said"
/**
 * The shapes the plugin's admin routes answer and accept, shared by the routes and the admin's
 * pages and widgets so they are declared once. Amounts are decimal strings, never floats.
 */

/** The settings the merchant edits in the admin (Settings → PayBright). */
export type PayBrightSettingsFields = {
  environment: "sandbox" | "production"
  apiKey: string
  captureMode: "in_store" | "virtual_card"
  captureOn: "shipment" | "fulfillment" | "manual"
  /** Who charges the virtual card; `custom` processors are configured in medusa-config.ts only. */
  cardProcessorType: "none" | "stripe" | "manual" | "custom"
  shopName: string
  currencies: string[]
  /** Decimal strings; null means no limit. */
  minOrderAmount: string | null
  maxOrderAmount: string | null
  /** The storefront's financing estimate (null: not set); the APR in percent, amounts as decimal strings. */
  financingMonths: number | null
  financingApr: string | null
  financingSetupFee: string | null
  financingMonthlyFee: string | null
  financingMinAmount: string | null
  /** The public key of PayBright's promotional widget (not a secret: storefronts load it). */
  promotionalWidgetKey: string | null
}

export type PayBrightSecretName = "apiToken" | "cardProcessorSecretKey"

/** A secret as the browser may see it: whether it is set and where from, never its value. */
export type PayBrightSecretState = { set: boolean; source: "admin" | "config" | "none" }

export type PayBrightSettingsView = {
  provider_id: string
  values: PayBrightSettingsFields
  secrets: Record<PayBrightSecretName, PayBrightSecretState>
  /** The fields saved in the admin; the others come from medusa-config.ts. */
  overridden: (keyof PayBrightSettingsFields)[]
  version: number
  updated_at: string | null
  updated_by: string | null
  /** Null when secrets can be saved; otherwise why not (the encryption key is missing). */
  secrets_unavailable: string | null
  /** `secrets_unavailable` as facts, for the admin to write in the merchant's language. */
  secrets_unavailable_facts: PayBrightSettingsFacts | null
  /**
   * Null when the server answering can use what was saved; otherwise why not (a saved secret does
   * not open with its PAYBRIGHT_SETTINGS_KEY): PayBright is then stopped on that server.
   */
  unreadable: string | null
  /** `unreadable` as facts, for the admin to write in the merchant's language. */
  unreadable_facts: PayBrightSettingsFacts | null
}

export type PayBrightSettingsResponse = {
  settings: PayBrightSettingsView[]
  /**
   * Whether this admin user may change the protected settings (environment, API key and token,
   * card processor and its key): the `paybright_settings:update` policy under Medusa's RBAC.
   */
  rights: { protected_settings: boolean }
}

/**
 * What the settings form sends: a blank or missing secret keeps the stored one. Months typed as
 * something other than a number are sent as typed, for the options schema to name the problem.
 */
export type PayBrightSettingsUpdate = Partial<Omit<PayBrightSettingsFields, "financingMonths">> & {
  financingMonths?: number | string | null
  apiToken?: string
  cardProcessorSecretKey?: string
}

/**
 * What the settings' server says to the merchant, as codes: the admin writes each sentence in the
 * merchant's language from its code and values (`paybright.settings.says.<code>`).
 */
export const PAYBRIGHT_SETTINGS_CODES = [
  // A wrong value, as the options schema finds it.
  "required",
  "empty",
  "too_long",
  "at_least",
  "at_most",
  "choice",
  "amount_format",
  "percentage_format",
  "whole_months",
  "no_currency",
  "currency_not_financed",
  "not_less_than",
  "estimate_needs_both",
  "processor_required",
  "stripe_key_format",
  "https_required",
  "test_in_production",
  "invalid",
  // The checks of a save beyond the schema.
  "unknown_provider",
  "secret_reentry",
  "key_missing",
  "key_short",
  "lease_too_short",
  "stripe_refused",
  "stripe_unchecked",
  "credentials_accepted",
  "credentials_refused",
  "credentials_unanswered",
  // Why the server cannot use what was saved.
  "unreadable_key",
  "unreadable_invalid",
] as const

export type PayBrightSettingsCode = (typeof PAYBRIGHT_SETTINGS_CODES)[number]

/**
 * A sentence of the settings' server as facts, beside the English it also answers (for API users
 * and logs). Values are plain: amounts as decimal strings, options by their code names
 * (`option`, `other`, `months`, `apr`), the lender's environment as `sandbox` or `production`.
 */
export type PayBrightSettingsFacts = {
  code: PayBrightSettingsCode
  values: Record<string, string | number>
}

/** One problem of a save: the field it is shown beside (null: the whole form), its facts and its English. */
export type PayBrightSettingsIssue = PayBrightSettingsFacts & {
  field: keyof PayBrightSettingsUpdate | null
  message: string
}

/** A settings save the lender or the checks refused: one message per form field. */
export type PayBrightSettingsRejection = {
  type: "invalid_data"
  message: string
  fields: Partial<Record<keyof PayBrightSettingsUpdate, string>>
  /** Every problem found, as facts; `message` and `fields` say them in English. */
  issues: PayBrightSettingsIssue[]
}

/** What checking a save before storing it found: the form shows each field's message inline. */
export type PayBrightSettingsCheck = {
  valid: boolean
  message: string
  fields: PayBrightSettingsRejection["fields"]
  issues: PayBrightSettingsIssue[]
}

export type PayBrightSettingsSaved = {
  settings: PayBrightSettingsView
  /** What the credentials test against the lender answered, in English and as facts. */
  credentials: { checked: boolean; message: string } & PayBrightSettingsFacts
}

/** A capture, refund or void of a PayBright contract, as the order panel lists it. */
export type PayBrightMoneyRecord = {
  id: string
  kind: "capture" | "refund" | "void"
  trigger: "shipment" | "fulfillment" | "admin" | "order_canceled" | "orphan" | "retry"
  amount: string
  currency_code: string
  state: "pending" | "done" | "refused" | "in_doubt"
  reference: string | null
  medusa_id: string | null
  /** What the merchant reads, in English. */
  message: string | null
  /** The same sentence as facts, for the admin to write in its language (null on older records). */
  said: Said | null
  lender_evidence: Record<string, string> | null
  resolved_by: string | null
  resolved_at: string | null
  /** The refused capture this attempt retries. */
  retry_of: string | null
  /** The parcel a capture at shipment or fulfillment was made for. */
  fulfillment_id: string | null
  created_at: string
}

/** An approval the lender gave, and what became of it. */
export type PayBrightApprovalRecord = {
  id: string
  contract: string
  session_id: string
  cart_id: string | null
  order_id: string | null
  amount: string
  currency_code: string
  state: "approved" | "ordered" | "orphaned" | "voided" | "handled"
  reason: string | null
  created_at: string
}

export type PayBrightTimelineEntry = {
  id: string
  kind: string
  /** The line in English. */
  message: string
  /** The same line as facts, for the admin to write in its language (null on older rows). */
  said: Said | null
  actor: string
  at: string
}

export type PayBrightPaymentStatus =
  | "awaiting_capture"
  | "partially_captured"
  | "captured"
  | "partially_refunded"
  | "refunded"
  | "capture_failed"
  | "in_doubt"
  | "cancelled"
  /**
   * Cancelled by an order change while the order still owes: the contract is being carried into the
   * order's new payment, which the panel shows once it is there.
   */
  | "carrying"
  /** Cancelled, and the contract voided at the lender: the shopper carries no loan. */
  | "voided"
  /** A void refused or in doubt: the shopper's loan may still be live. */
  | "void_failed"

/** What captures a payment by itself: its parcels as they ship, or as they are fulfilled; "manual", nothing. */
export type CaptureOn = "shipment" | "fulfillment" | "manual"

/** Everything the order page's PayBright panel shows, for one order. */
export type PayBrightOrderPanel = {
  order_id: string
  payment_id: string
  contract: string | null
  capture_mode: "in_store" | "virtual_card"
  /** What captures this payment by itself: each parcel as it ships, or as it is fulfilled; "manual", nothing (the merchant captures). */
  capture_on: CaptureOn
  /** The processor the payment is charged through: "stripe", "manual", "custom:<module>"; none in-store. */
  card_processor: string | null
  status: PayBrightPaymentStatus
  /** Days before the lender cancels what is uncaptured; null when nothing is left to capture. */
  expires_in_days: number | null
  expires_at: string | null
  /** Past the age the merchant is warned at (expiryWarningDays): the status says how soon it expires. */
  expiring: boolean
  currency_code: string
  authorized: string
  captured: string
  refunded: string
  /** Authorized and not yet captured. */
  remaining: string
  card: { last4: string; expiry: string; brand: string } | null
  records: (PayBrightMoneyRecord & { actions: PayBrightAttentionAction[] })[]
  /**
   * A capture PayBright is expected to make by itself: when its parcel was shipped (or fulfilled)
   * while the capture has no concluded record yet, and whether that was over two minutes ago (it
   * has not landed as it should); null when none is expected. The panel follows it until it lands.
   */
  capture_expected: { since: string; overdue: boolean } | null
  /**
   * While the status is `carrying`: when Medusa cancelled the payment for the order change, and
   * whether that was over two minutes ago (the carry on Medusa's event did not land; the
   * reconciliation job carries it). The panel follows it until the new payment is there.
   */
  carry_expected: { since: string; overdue: boolean } | null
  timeline: PayBrightTimelineEntry[]
  actions: {
    /**
     * Nothing captured yet: Medusa's own "Capture payment" captures everything, so the panel
     * points to it rather than offering a second button.
     */
    capture_in_medusa: boolean
    /** Part captured: Medusa's button would ask for the whole authorization, which is refused; the panel captures the rest. */
    capture_remainder: boolean
    reveal_card: boolean
  }
}

export type PayBrightOrderPanelResponse = { panel: PayBrightOrderPanel | null }

/** A retried capture as its route answers it: made (done), or not made because the order moved on (skipped). */
export type PayBrightCaptureAnswer =
  { status: "done"; amount: string; recordId: string; message: string | null } | { status: "skipped"; reason: string }

/** One line of the order list's "PayBright: needs attention" section. */
/**
 * What a merchant can do about an entry or a record. `capture_in_medusa` is no button of the
 * plugin's: Medusa's own "Capture payment" takes the refused capture's money, and the admin says so.
 */
export type PayBrightAttentionAction = "retry_capture" | "capture_in_medusa" | "retry_void" | "resolve" | "mark_handled"

export type PayBrightAttentionItem = {
  kind:
    | "expiring_authorization"
    | "open_authorization"
    | "refused_capture"
    | "in_doubt"
    | "unvoided_contract"
    | "orphaned_approval"
    /** An order an edit raised above what its PayBright contract covers: the rest is collected another way. */
    | "uncovered_balance"
    /** A server or worker cannot use the saved settings, so it refuses all PayBright work (not about money: amount "0.00"). */
    | "settings_unreadable"
  /** Where the entry leads: its order, or its contract when there is no order. */
  order_id: string | null
  order_display_id: number | null
  contract: string | null
  amount: string
  currency_code: string
  /**
   * One sentence: what happened and what to do. Null for an authorization awaiting capture, which
   * the admin words itself from `amount` and `expires_at`.
   */
  message: string | null
  /** The same sentence as facts, for the admin to write in its language. */
  said: Said | null
  /** For authorizations: when the lender cancels the uncaptured remainder. */
  expires_at: string | null
  /** For authorizations: what captures it by itself (the order's own capture mode); null for other entries. */
  capture_on: CaptureOn | null
  at: string
  /** The capture, refund or void record the entry is about, if any. */
  record_id: string | null
  /** The approval the entry is about, for an approved contract that never became an order. */
  approval_id: string | null
  /** What the merchant can do about it from the list. */
  actions: PayBrightAttentionAction[]
  /** For a record: its movement (capture, refund, void). */
  movement: "capture" | "refund" | "void" | null
}

export type PayBrightAttentionResponse = { items: PayBrightAttentionItem[] }

/** The full virtual card, answered once to a person with the manual card processor. */
export type PayBrightRevealedCard = {
  card_token: string
  last4: string
  expiry: string
  cardholder_name: string
  pan: string
  cvv: string
}
