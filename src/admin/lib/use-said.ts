import { SAID_TEXTS, writeSaid, type Said } from "../../lib/texts/said"
import { money } from "./format"
import { useAdminText } from "./use-admin-text"

/**
 * Writes a sentence the server handed as facts (src/lib/texts/said.ts) in the admin's language, with
 * money as the admin writes it; English for a language the plugin has no sentences in. A row written
 * before sentences were kept as facts has only its English `message`, shown as it is.
 */
export function useSaid() {
  const { tag } = useAdminText()
  const texts = tag.toLowerCase().startsWith("fr") ? SAID_TEXTS.fr : SAID_TEXTS.en
  return (sentence: Said | null | undefined, english?: string | null): string =>
    sentence ? writeSaid(sentence, texts, money) : (english ?? "")
}
