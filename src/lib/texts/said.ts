import { EN_TEXTS } from "./en"
import { FR_TEXTS } from "./fr"
import { moneyText } from "./money-text"

/** An amount as a fact: the admin writes it in its own language and format. */
export type SaidMoney = { money: { amount: string; currency: string } }
/** A value of a sentence: plain words (a contract, the lender's own words), an amount, or a sentence of its own. */
export type SaidValue = string | SaidMoney | { said: Said }

/**
 * What the merchant is told, as facts: which sentence (`code`) and what fills it. The sentences
 * themselves live in src/lib/texts, one per language; the server writes English from them for
 * its logs, its rows' `message` and its API's readers, and the admin writes them in its language.
 */
export type Said = { code: string; values?: Record<string, SaidValue> }

/** The sentences of one language, by code, with `{{name}}` where a value goes. */
export type Texts = Record<string, string>

export const SAID_TEXTS: Record<"en" | "fr", Texts> = { en: EN_TEXTS, fr: FR_TEXTS }

export function said(code: string, values?: Record<string, SaidValue | undefined | null>): Said {
  if (!values) return { code }
  const present = Object.entries(values).filter((entry): entry is [string, SaidValue] => entry[1] != null)
  return { code, values: Object.fromEntries(present) }
}

export function money(amount: string, currency: string): SaidMoney {
  return { money: { amount, currency } }
}

export function nested(sentence: Said): { said: Said } {
  return { said: sentence }
}

/** Words the plugin did not write (the lender's, a processor's, Medusa's), kept as they came. */
export function verbatim(text: string): Said {
  return { code: "verbatim", values: { text } }
}

/**
 * A sentence in one language: each value written by `writeMoney` or as a sentence of its own, a
 * code the language lacks in English, and words with no code as they came.
 */
export function writeSaid(
  sentence: Said,
  texts: Texts,
  writeMoney: (amount: string, currency: string) => string
): string {
  const template = texts[sentence.code] ?? EN_TEXTS[sentence.code]
  if (template === undefined) return sentence.code
  return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => {
    const value = sentence.values?.[name]
    if (value === undefined) return ""
    if (typeof value === "string") return value
    if ("money" in value) return writeMoney(value.money.amount, value.money.currency)
    return writeSaid(value.said, texts, writeMoney)
  })
}

/** The English the server keeps and logs: amounts with symbol and code ("$1,044.12 CAD"). */
export function english(sentence: Said): string {
  return writeSaid(sentence, EN_TEXTS, moneyText)
}

/** Whether a stored value is a sentence of this shape (rows written before sentences were kept have none). */
export function isSaid(value: unknown): value is Said {
  return !!value && typeof value === "object" && typeof (value as Said).code === "string"
}

/** What a lower layer hands the one writer of a row: a sentence, or words it did not write. */
export type Sentence = Said | string

/** A row's two sides of one sentence: the English the server keeps, and the sentence the admin writes. */
export function spoken(sentence: Sentence): { message: string; said: Said } {
  const asSaid = typeof sentence === "string" ? verbatim(sentence) : sentence
  return { message: english(asSaid), said: asSaid }
}
