import type { PayBrightPromotionalWidget } from "./limits"
import { payBrightLanguage } from "./messages"
import { centsText, toCents } from "./money"

/** The element id PayBright's widget script is loaded under: the script finds its own settings through it. */
export const PAYBRIGHT_WIDGET_SCRIPT_ID = "pb_prequalify"
/** The class of the element PayBright's widget draws into. */
export const PAYBRIGHT_WIDGET_CONTAINER_CLASS = "paybright-widget-container"

/**
 * The address of PayBright's promotional widget script for a price: its public key and the amount
 * financed, written with a dollar sign as PayBright's published integrations do.
 */
export function payBrightWidgetScriptUrl(widget: PayBrightPromotionalWidget, amount: number | string): string {
  const url = new URL(widget.script_url)
  url.searchParams.set("public_key", widget.public_key)
  url.searchParams.set("financedamount", `$${centsText(toCents(amount))}`)
  return url.toString()
}

/** What the widget script exposes once loaded. */
export type PayBrightWidgetGlobal = { pb_prequalify_init?: (options: { lang: "en" | "fr" }) => void }

/**
 * Loads PayBright's widget script for a price into the page (replacing one loaded before) and
 * starts it in the shopper's language once loaded. Browser only; resolves when the widget is drawn
 * into the page's `.paybright-widget-container`, rejects when the script cannot be loaded.
 */
export function loadPayBrightWidget(
  widget: PayBrightPromotionalWidget,
  amount: number | string,
  locale?: string | null,
  doc: Document = document
): Promise<void> {
  doc.getElementById(PAYBRIGHT_WIDGET_SCRIPT_ID)?.remove()
  const script = doc.createElement("script")
  script.id = PAYBRIGHT_WIDGET_SCRIPT_ID
  script.src = payBrightWidgetScriptUrl(widget, amount)
  script.async = true
  return new Promise((resolve, reject) => {
    script.onload = () => {
      const start = (doc.defaultView as (Window & PayBrightWidgetGlobal) | null)?.pb_prequalify_init
      if (!start) return reject(new Error("PayBright's widget script defines no pb_prequalify_init"))
      start({ lang: payBrightLanguage(locale) })
      resolve()
    }
    script.onerror = () => reject(new Error(`PayBright's widget script could not be loaded from ${widget.script_url}`))
    doc.head.appendChild(script)
  })
}
