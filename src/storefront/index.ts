/**
 * medusa-payment-paybright/storefront: what a storefront needs to offer PayBright, with no
 * dependency and no React (safe in React Server Components, route handlers and any browser code).
 * The React parts are in medusa-payment-paybright/storefront/react.
 */
export { isPayBright, PAYBRIGHT_PROVIDER_ID } from "./provider"
export {
  payBrightRedirectOf,
  PayBrightSessionError,
  submitPayBrightForm,
  type PayBrightRedirect,
  type PayBrightSessionLike,
} from "./session"
export {
  isPayBrightCheckoutStatus,
  PAYBRIGHT_CHECKOUT_STATUSES,
  PAYBRIGHT_MESSAGES,
  payBrightLanguage,
  payBrightNumberLocale,
  PAYBRIGHT_STATUS_PARAM,
  payBrightStatusMessage,
  payBrightText,
  withoutPayBrightStatus,
  type PayBrightCheckoutStatus,
  type PayBrightStatusMessageOptions,
  type PayBrightLanguage,
  type PayBrightMessageKey,
} from "./messages"
export {
  fetchPayBrightLimits,
  isPayBrightOffered,
  PAYBRIGHT_LIMITS_PATH,
  payBrightLimitsOf,
  payBrightUnavailableMessage,
  type PayBrightAmount,
  type PayBrightFinancingTerms,
  type PayBrightLimits,
  type PayBrightLimitsResponse,
  type PayBrightPromotionalWidget,
} from "./limits"
export {
  estimatePayBrightFinancing,
  payBrightFinancingMessage,
  type PayBrightEstimate,
  type PayBrightFinancingOptions,
  type PayBrightFinancingMessage,
} from "./financing"
export {
  loadPayBrightWidget,
  PAYBRIGHT_WIDGET_CONTAINER_CLASS,
  PAYBRIGHT_WIDGET_SCRIPT_ID,
  payBrightWidgetScriptUrl,
} from "./widget"
export type { PayBrightMoneyFormatter } from "./money"
export { continueOnThisSite, readPayBrightReturn, type PayBrightReturn } from "./return"
