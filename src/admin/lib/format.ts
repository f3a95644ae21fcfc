/**
 * How the PayBright admin writes money, dates and typed amounts, as Medusa's own admin does.
 * Amounts arrive as decimal strings; they become numbers here only to be written.
 */

/**
 * Money as Medusa's order page writes its payments and refunds (its `getLocaleAmount`): the
 * browser's locale and the currency's narrow symbol, so "$1,044.12" sits beside Medusa's own.
 */
export function money(amount: string, currency: string) {
  return new Intl.NumberFormat([], {
    style: "currency",
    currencyDisplay: "narrowSymbol",
    currency: currency.toUpperCase(),
  }).format(Number(amount))
}

/**
 * Medusa's language code ("fr", "ptBR") as a BCP 47 tag ("fr", "pt-BR"), as its admin sets
 * `<html lang>`; English for anything Intl does not know.
 */
export function languageTag(code: string | undefined) {
  const tag = (code ?? "en").replace(/([a-z])([A-Z])/g, "$1-$2")
  try {
    return Intl.getCanonicalLocales(tag)[0] ?? "en"
  } catch {
    return "en"
  }
}

/** A day as Medusa writes dates (date-fns `PP`) in the admin's language: "Dec 26, 2026", "26 déc. 2026". */
export function date(iso: string, tag: string) {
  return new Intl.DateTimeFormat(tag, { dateStyle: "medium" }).format(new Date(iso))
}

/** A moment as Medusa writes it (date-fns `PP p`): "Dec 26, 2026 3:04 PM", "26 déc. 2026 15:04". */
export function dateTime(iso: string, tag: string) {
  const at = new Date(iso)
  return `${date(iso, tag)} ${new Intl.DateTimeFormat(tag, { timeStyle: "short" }).format(at)}`
}

/**
 * An amount typed the way the admin's language writes it ("5 000,00" in French, "5,000.00" in
 * English) as the decimal the settings take ("5000.00"); anything else is left as typed, for the
 * server to name the problem.
 */
export function typedAmount(typed: string, tag: string) {
  const decimalComma = new Intl.NumberFormat(tag).format(1.5).includes(",")
  const plain = typed.trim().replace(/[\s\u00a0\u202f]/g, "")
  // A comma in English groups thousands only before three digits: "5000,00" is left as typed.
  const normalized = decimalComma ? plain.replace(",", ".") : plain.replace(/,(?=\d{3}(?!\d))/g, "")
  return /^\d+(\.\d+)?$/.test(normalized) ? normalized : typed.trim()
}

/** The message of an error from the SDK, or a fallback that says what failed. */
export function errorText(error: unknown, fallback: string) {
  return error instanceof Error && error.message ? error.message : fallback
}
