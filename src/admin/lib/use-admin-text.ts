import { useTranslation } from "react-i18next"
import { date, dateTime, languageTag, money } from "./format"

/**
 * The PayBright admin's words and formats in the language the merchant picked in Medusa's admin:
 * `t` reads the plugin's texts (`paybright.…`) and Medusa's own (`orders.payment.capture`), so a
 * button can use Medusa's exact words; money and dates are written as Medusa writes them.
 */
export function useAdminText() {
  const { t, i18n } = useTranslation()
  const tag = languageTag(i18n.resolvedLanguage ?? i18n.language)
  return {
    t,
    tag,
    money,
    date: (iso: string) => date(iso, tag),
    dateTime: (iso: string) => dateTime(iso, tag),
  }
}
