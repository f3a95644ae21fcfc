/**
 * An amount as every sentence a merchant reads writes it: the currency's symbol, the thousands
 * grouped, then its code ("$1,044.12 CAD"), as Medusa's admin writes an order's totals. The amount
 * is a decimal string (the lender's cents) and is written digit by digit, never through a float.
 */
export function moneyText(amount: string, currency: string): string {
  const code = currency.toUpperCase()
  const negative = amount.trim().startsWith("-")
  const [whole, fraction] = amount.trim().replace(/^-/, "").split(".")
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",")
  return `${negative ? "-" : ""}${symbolOf(code)}${grouped}${fraction !== undefined ? `.${fraction}` : ""} ${code}`
}

/** The currency's narrow symbol ("$" for CAD and USD, "€"), or none for a code Intl does not know. */
function symbolOf(code: string): string {
  try {
    const parts = new Intl.NumberFormat("en-US", { style: "currency", currency: code, currencyDisplay: "narrowSymbol" })
    const symbol = parts.formatToParts(0).find((part) => part.type === "currency")?.value ?? ""
    return symbol === code ? "" : symbol
  } catch {
    return ""
  }
}
