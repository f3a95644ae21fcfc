import en from "../../i18n/json/en.json"
import fr from "../../i18n/json/fr.json"
import { date, dateTime, languageTag, money, typedAmount } from "../format"

const keysOf = (texts: object, prefix = ""): string[] =>
  Object.entries(texts).flatMap(([key, value]) =>
    typeof value === "object" ? keysOf(value as object, `${prefix}${key}.`) : [`${prefix}${key}`]
  )

describe("the admin's formats", () => {
  it("writes money as Medusa's order page does: the currency's narrow symbol", () => {
    // Jest runs under the machine's default locale, as the browser's would be.
    const expected = new Intl.NumberFormat([], { style: "currency", currencyDisplay: "narrowSymbol", currency: "CAD" })
    expect(money("1044.12", "cad")).toBe(expected.format(1044.12))
    expect(money("1044.12", "cad")).not.toContain("CAD")
  })

  it("writes dates in the admin's language, as date-fns PP and PP p do", () => {
    const at = "2026-12-26T15:04:00.000Z"
    const local = new Date(at)
    const time = new Intl.DateTimeFormat("en", { timeStyle: "short" }).format(local)
    expect(date(at, "en")).toBe(new Intl.DateTimeFormat("en", { dateStyle: "medium" }).format(local))
    expect(date("2026-12-26T12:00:00.000Z", "en")).toBe("Dec 26, 2026")
    expect(date("2026-12-26T12:00:00.000Z", "fr")).toBe("26 déc. 2026")
    expect(dateTime(at, "en")).toBe(`${date(at, "en")} ${time}`)
    expect(dateTime(at, "en")).not.toContain(",  ")
  })

  it("turns Medusa's language codes into BCP 47 tags, English for an unknown one", () => {
    expect(languageTag("fr")).toBe("fr")
    expect(languageTag("ptBR")).toBe("pt-BR")
    expect(languageTag(undefined)).toBe("en")
    expect(languageTag("not a language")).toBe("en")
  })

  it("reads an amount typed the way the admin's language writes it", () => {
    expect(typedAmount("5 000,00", "fr")).toBe("5000.00")
    expect(typedAmount("5\u202f000,5", "fr")).toBe("5000.5")
    expect(typedAmount("9.99", "fr")).toBe("9.99")
    expect(typedAmount("5,000.00", "en")).toBe("5000.00")
    expect(typedAmount("1,234,567.8", "en")).toBe("1234567.8")
    expect(typedAmount("5000,00", "en")).toBe("5000,00")
    expect(typedAmount(" 100 ", "en")).toBe("100")
    // Left as typed, for the server to name the problem.
    expect(typedAmount("five", "en")).toBe("five")
    expect(typedAmount("1,234.5", "fr")).toBe("1,234.5")
  })

  it("has every English text in French too, and nothing more", () => {
    expect(keysOf(fr).sort()).toEqual(keysOf(en).sort())
  })
})
