/**
 * Every sentence the kit shows a shopper, in English and in French (Canada is bilingual, and
 * Quebec expects French). Exported so a storefront can restyle them or reword them in one place;
 * `{name}` marks a value filled in by `payBrightText`.
 */

/** Why a shopper is back at checkout, as the plugin sets `paybright_status` on the return. */
export const PAYBRIGHT_CHECKOUT_STATUSES = [
  "declined",
  "cancelled",
  "pending",
  "processing",
  "expired",
  "error",
] as const
export type PayBrightCheckoutStatus = (typeof PAYBRIGHT_CHECKOUT_STATUSES)[number]

export type PayBrightLanguage = "en" | "fr"

const en = {
  title: "PayBright financing",
  continue: "Continue to PayBright",
  opening: "Opening PayBright…",
  redirectNotice:
    "You will be sent to PayBright to apply for financing, then brought back here once PayBright has decided.",
  notPayBright: "This payment is not set up for PayBright. Choose PayBright again as the payment method.",
  noForm: "PayBright is not ready for this cart yet. Choose PayBright again as the payment method.",
  submitFailed: "PayBright could not be opened. Reload the page and try again.",
  financing: "or from {amount}/month with PayBright",
  estimate:
    "Estimate: {months} monthly payments at {apr}% APR{fees}, subject to approval. PayBright sets your actual terms.",
  setupFee: ", a {fee} fee financed",
  monthlyFee: ", {fee} a month in fees",
  returning: "Taking you back to the store…",
  returningLink: "Continue",
  "status.declined": "PayBright did not approve the application. Please choose another way to pay.",
  "status.cancelled": "You left the PayBright application. Nothing was charged; please choose a payment method.",
  "status.pending":
    "PayBright has not decided yet. Your order is placed as soon as PayBright approves it; check back later.",
  "status.processing":
    "PayBright approved your application and your order is being placed. Reload this page in a moment.",
  "status.expired": "Your cart changed while you applied with PayBright. Please apply again.",
  "status.error": "Your order could not be placed with PayBright. Please choose a payment method again.",
  "status.declined.only":
    "PayBright did not approve the application, and this store has no other way to pay for this cart. Please contact the store.",
  "status.cancelled.only":
    "You left the PayBright application. Nothing was charged; continue to PayBright again when you are ready.",
  "status.error.only": "Your order could not be placed with PayBright. Please try again, or contact the store.",
  beforeTaxAndShipping: "Before tax and shipping.",
  "unavailable.range": "PayBright financing is available for orders from {min} to {max}.",
  "unavailable.min": "PayBright financing is available for orders of {min} or more.",
  "unavailable.max": "PayBright financing is available for orders up to {max}.",
  "unavailable.currency": "PayBright financing is not available in this currency.",
}

export type PayBrightMessageKey = keyof typeof en

const fr: Record<PayBrightMessageKey, string> = {
  title: "Financement PayBright",
  continue: "Continuer avec PayBright",
  opening: "Ouverture de PayBright…",
  redirectNotice:
    "Vous serez dirigé vers PayBright pour faire votre demande de financement, puis ramené ici une fois la décision rendue.",
  notPayBright: "Ce paiement n’est pas prévu pour PayBright. Choisissez de nouveau PayBright comme mode de paiement.",
  noForm: "PayBright n’est pas encore prêt pour ce panier. Choisissez de nouveau PayBright comme mode de paiement.",
  submitFailed: "PayBright n’a pas pu être ouvert. Rechargez la page et réessayez.",
  financing: "ou à partir de {amount}/mois avec PayBright",
  estimate:
    "Estimation\u00a0: {months} paiements mensuels au TAP de {apr}\u00a0%{fees}, sous réserve d’approbation. PayBright fixe vos conditions réelles.",
  setupFee: ", frais de {fee} financés",
  monthlyFee: ", frais de {fee} par mois",
  returning: "Retour à la boutique…",
  returningLink: "Continuer",
  "status.declined": "PayBright n’a pas approuvé la demande. Veuillez choisir un autre mode de paiement.",
  "status.cancelled":
    "Vous avez quitté la demande PayBright. Rien n’a été facturé. Veuillez choisir un mode de paiement.",
  "status.pending":
    "PayBright n’a pas encore rendu sa décision. Votre commande sera passée dès que PayBright l’approuvera. Revenez plus tard.",
  "status.processing":
    "PayBright a approuvé votre demande et votre commande est en cours. Rechargez cette page dans un instant.",
  "status.expired": "Votre panier a changé pendant votre demande PayBright. Veuillez refaire la demande.",
  "status.error":
    "Votre commande n’a pas pu être passée avec PayBright. Veuillez choisir de nouveau un mode de paiement.",
  "status.declined.only":
    "PayBright n’a pas approuvé la demande, et cette boutique n’offre aucun autre mode de paiement pour ce panier. Veuillez communiquer avec la boutique.",
  "status.cancelled.only":
    "Vous avez quitté la demande PayBright. Rien n’a été facturé. Continuez avec PayBright quand vous serez prêt.",
  "status.error.only":
    "Votre commande n’a pas pu être passée avec PayBright. Veuillez réessayer ou communiquer avec la boutique.",
  beforeTaxAndShipping: "Avant taxes et livraison.",
  "unavailable.range": "Le financement PayBright est offert pour les commandes de {min} à {max}.",
  "unavailable.min": "Le financement PayBright est offert pour les commandes de {min} ou plus.",
  "unavailable.max": "Le financement PayBright est offert pour les commandes jusqu’à {max}.",
  "unavailable.currency": "Le financement PayBright n’est pas offert dans cette devise.",
}

export const PAYBRIGHT_MESSAGES: Record<PayBrightLanguage, Record<PayBrightMessageKey, string>> = { en, fr }

/** The kit's language for a locale or language tag: French for "fr", "fr-CA", "fr_CA"; English otherwise. */
export function payBrightLanguage(locale?: string | null): PayBrightLanguage {
  return locale?.trim().toLowerCase().startsWith("fr") ? "fr" : "en"
}

/** The locale money is written in: Canadian English or French ("$88.85", "88,85 $"). */
export function payBrightNumberLocale(locale?: string | null): string {
  return payBrightLanguage(locale) === "fr" ? "fr-CA" : "en-CA"
}

/** One message in the shopper's language, its `{name}` marks filled from `values`. */
export function payBrightText(
  key: PayBrightMessageKey,
  locale?: string | null,
  values: Record<string, string | number> = {}
): string {
  return PAYBRIGHT_MESSAGES[payBrightLanguage(locale)][key].replace(/\{(\w+)\}/g, (mark, name: string) =>
    name in values ? String(values[name]) : mark
  )
}

/** Whether a value is one of the statuses the plugin sets on the return. */
export function isPayBrightCheckoutStatus(value: unknown): value is PayBrightCheckoutStatus {
  return (PAYBRIGHT_CHECKOUT_STATUSES as readonly unknown[]).includes(value)
}

/** The search parameter the plugin sends the shopper back to checkout with. */
export const PAYBRIGHT_STATUS_PARAM = "paybright_status"

/** Statuses whose sentence asks for another way to pay, and has a variant for a cart with none. */
const WITH_ONLY_VARIANT = new Set<PayBrightCheckoutStatus>(["declined", "cancelled", "error"])

export type PayBrightStatusMessageOptions = {
  /**
   * Whether the cart can be paid another way than PayBright. False (PayBright is the region's
   * only method) gives the sentences that do not ask for another one.
   */
  otherMethods?: boolean
}

/**
 * The sentence for the shopper back at checkout, from `paybright_status` (pass the value, or the
 * page's search params); undefined when there is none or it is not one the plugin sets.
 */
export function payBrightStatusMessage(
  status: string | null | undefined | URLSearchParams | { get(name: string): string | null },
  locale?: string | null,
  options: PayBrightStatusMessageOptions = {}
): string | undefined {
  const value = typeof status === "object" && status !== null ? status.get(PAYBRIGHT_STATUS_PARAM) : status
  if (!isPayBrightCheckoutStatus(value)) return undefined
  const only = options.otherMethods === false && WITH_ONLY_VARIANT.has(value)
  return payBrightText(only ? (`status.${value}.only` as PayBrightMessageKey) : `status.${value}`, locale)
}

/**
 * The same address without `paybright_status`, to replace the page's URL with once its sentence is
 * shown: going back to the payment step then does not show an old result again. Everything else
 * (origin, path, the other parameters, the fragment) is kept as it was written.
 */
export function withoutPayBrightStatus(address: string): string {
  const hashAt = address.indexOf("#")
  const hash = hashAt < 0 ? "" : address.slice(hashAt)
  const beforeHash = hashAt < 0 ? address : address.slice(0, hashAt)
  const queryAt = beforeHash.indexOf("?")
  if (queryAt < 0) return address
  const params = new URLSearchParams(beforeHash.slice(queryAt + 1))
  params.delete(PAYBRIGHT_STATUS_PARAM)
  const query = params.toString()
  return `${beforeHash.slice(0, queryAt)}${query ? `?${query}` : ""}${hash}`
}
