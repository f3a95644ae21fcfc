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
 * How the admin's language writes a number in a settings input: its decimal mark and the mark
 * between groups of digits. Latin digits always, so what is shown can be typed back as it is.
 */
function numberMarks(tag: string) {
  const parts = new Intl.NumberFormat(tag, { numberingSystem: "latn" }).formatToParts(12345.6)
  return {
    decimal: parts.find((part) => part.type === "decimal")?.value ?? ".",
    group: parts.find((part) => part.type === "group")?.value ?? ",",
  }
}

const SPACES = /[\s\u00a0\u202f]/g
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

/**
 * A decimal the settings store ("5000.00", an APR of "9.99") as the admin's language writes it in
 * an input: "5 000,00" and "9,99" in French (Intl's narrow no-break space between groups, as
 * Medusa's own French amounts), "5,000.00" in English. The digits are kept as stored (no float):
 * typedAmount reads the answer back to the same decimal. Anything else is shown as it is.
 */
export function shownAmount(decimal: string, tag: string) {
  if (!/^\d+(\.\d+)?$/.test(decimal)) return decimal
  const decimals = decimal.split(".")[1]?.length ?? 0
  const format = new Intl.NumberFormat(tag, {
    numberingSystem: "latn",
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
  })
  // Intl formats a decimal string exactly, digit for digit (ES2023's StringNumericLiteral).
  return format.format(decimal as unknown as number)
}

/**
 * An amount typed the way the admin's language writes it ("5 000,00" in French, "5,000.00" in
 * English), or as a plain decimal ("9.99"), as the decimal the settings take ("5000.00"); anything
 * else is left as typed, for the server to name the problem. A group mark counts only before
 * groups of digits: "5000,00" in English is left as typed, not read as 500000.
 */
export function typedAmount(typed: string, tag: string) {
  const { decimal, group } = numberMarks(tag)
  const plain = typed.trim().replace(SPACES, "")
  // Apostrophes group digits in Swiss German, typed either way.
  const groups = /['\u2019]/.test(group) ? "['\u2019]" : escaped(group)
  const written = new RegExp(`^\\d+((${groups}\\d{2,3})*${groups}\\d{3})?(${escaped(decimal)}\\d+)?$`)
  if (written.test(plain)) {
    const [whole, fraction] = plain.split(decimal)
    const digits = whole.replace(/\D/g, "")
    return fraction === undefined ? digits : `${digits}.${fraction}`
  }
  return /^\d+(\.\d+)?$/.test(plain) ? plain : typed.trim()
}

/** The message of an error from the SDK, or a fallback that says what failed. */
export function errorText(error: unknown, fallback: string) {
  return error instanceof Error && error.message ? error.message : fallback
}
