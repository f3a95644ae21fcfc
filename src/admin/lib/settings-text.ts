import type { PayBrightSettingsFacts, PayBrightSettingsIssue } from "../../lib/admin-types"
import { shownAmount } from "./format"

/** i18next's `t`, as the settings page uses it: a key and its values. */
export type Translate = (key: string, values?: Record<string, unknown>) => string

/** The settings' code names the server's facts may name, and the label each has on the settings page. */
const LABELS: Record<string, string> = {
  environment: "environment",
  apiKey: "apiKey",
  apiToken: "apiToken",
  captureMode: "captureMode",
  captureOn: "captureOn",
  cardProcessor: "cardProcessor",
  cardProcessorType: "cardProcessor",
  cardProcessorSecretKey: "stripeKey",
  "cardProcessor.options.secretKey": "stripeKey",
  shopName: "shopName",
  currencies: "currencies",
  minOrderAmount: "minOrderAmount",
  maxOrderAmount: "maxOrderAmount",
  financingMonths: "financingMonths",
  financingApr: "financingApr",
  financingSetupFee: "financingSetupFee",
  financingMonthlyFee: "financingMonthlyFee",
  financingMinAmount: "financingMinAmount",
  promotionalWidgetKey: "promotionalWidgetKey",
}

/** Values that name a setting: the merchant reads its label, never its code name. */
const NAMES = ["option", "other", "months", "apr"]
/** Values that are numbers the merchant reads as their language writes them ("100,00", "99,9999"). */
const NUMBERS = ["value", "example", "min", "max"]

/** A setting as the merchant knows it: its label on the page without the hint ("Maximum order total"), else its name. */
export function settingName(t: Translate, name: string) {
  const label = LABELS[name] ?? LABELS[name.split(".")[0]]
  return label ? t(`paybright.settings.${label}`).split(" (")[0] : name
}

/**
 * What the settings' server said, written in the merchant's language from its facts: the field
 * (or option) it concerns by its label, amounts as the language writes them, the lender's
 * environment in the language's words.
 */
export function settingsSentence(
  t: Translate,
  tag: string,
  facts: PayBrightSettingsFacts & { field?: PayBrightSettingsIssue["field"] }
) {
  const values: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(facts.values)) {
    values[key] = NAMES.includes(key)
      ? settingName(t, String(value))
      : NUMBERS.includes(key)
        ? shownAmount(String(value), tag)
        : key === "environment"
          ? t(`paybright.settings.environmentWord.${value}`)
          : value
  }
  const field = facts.field ?? String(facts.values.option ?? "")
  return t(`paybright.settings.says.${facts.code}`, { ...values, field: settingName(t, field) })
}

/**
 * A refused save as the form shows it: each field's first problem beside it, and the problems of
 * no field on the page (options of the store's configuration, the lender not answering) above;
 * `told`, every one of them in one line for the toast, as a field may sit below the fold.
 */
export function refusalText(t: Translate, tag: string, issues: PayBrightSettingsIssue[], onPage: readonly string[]) {
  const fields: Partial<Record<string, string>> = {}
  const others: string[] = []
  for (const issue of issues) {
    const sentence = settingsSentence(t, tag, issue)
    if (issue.field && onPage.includes(issue.field)) fields[issue.field] ??= sentence
    else others.push(sentence.replace(/\.$/, ""))
  }
  const problem = [
    Object.keys(fields).length ? t("paybright.settings.fieldsRefused") : null,
    others.length ? t("paybright.settings.notSavedBecause", { reasons: others.join("; ") }) : null,
  ]
    .filter(Boolean)
    .join(" ")
  const told = [...Object.values(fields), ...others].map((sentence) => sentence!.replace(/\.$/, ""))
  return {
    fields,
    problem: problem || t("paybright.settings.notSaved"),
    told: told.length ? `${told.join("; ")}.` : t("paybright.settings.notSaved"),
  }
}
