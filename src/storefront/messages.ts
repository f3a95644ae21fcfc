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

/**
 * The sentence for the shopper back at checkout, from `paybright_status` (pass the value, or the
 * page's search params); undefined when there is none or it is not one the plugin sets.
 */
export function payBrightStatusMessage(
  status: string | null | undefined | URLSearchParams | { get(name: string): string | null },
  locale?: string | null
): string | undefined {
  const value = typeof status === "object" && status !== null ? status.get("paybright_status") : status
  return isPayBrightCheckoutStatus(value) ? payBrightText(`status.${value}`, locale) : undefined
}
