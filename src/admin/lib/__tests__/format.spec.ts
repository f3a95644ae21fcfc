import en from "../../i18n/json/en.json"
import fr from "../../i18n/json/fr.json"
import { date, dateTime, languageTag, money, shownAmount, typedAmount } from "../format"

const keysOf = (texts: object, prefix = ""): string[] =>
  Object.entries(texts).flatMap(([key, value]) =>
    typeof value === "object" ? keysOf(value as object, `${prefix}${key}.`) : [`${prefix}${key}`]
  )

describe("the admin's formats", () => {
  it("writes money as Medusa's order page does: the currency's narrow symbol", () => {
    // Written in the machine's own locale, as the browser's: the digits and the "$" are what stay.
    expect(money("1044.12", "cad").replace(/\D/g, "")).toBe("104412")
    expect(money("1044.12", "cad")).toContain("$")
    expect(money("1044.12", "cad")).not.toContain("CA")
  })

  it("writes dates in the admin's language, as date-fns PP and PP p do", () => {
    // Noon UTC: the same day in every time zone the test may run in.
    const at = "2026-12-26T12:00:00.000Z"
    expect(date(at, "en")).toBe("Dec 26, 2026")
    expect(date(at, "fr")).toBe("26 déc. 2026")
    expect(dateTime(at, "en")).toMatch(/^Dec 26, 2026 \d{1,2}:\d\d\s?[AP]M$/)
    expect(dateTime(at, "fr")).toMatch(/^26 déc\. 2026 \d\d:\d\d$/)
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
    expect(typedAmount("50,00", "en")).toBe("50,00")
    // Languages that group with a dot read "5.000,00"; a plain decimal stays one.
    expect(typedAmount("5.000,00", "de")).toBe("5000.00")
    expect(typedAmount("9.99", "de")).toBe("9.99")
  })

  it("shows a stored amount the way the admin's language writes it, digit for digit", () => {
    // Intl groups French digits with a narrow no-break space.
    expect(shownAmount("5000.00", "fr")).toBe("5\u202f000,00")
    expect(shownAmount("9.99", "fr")).toBe("9,99")
    expect(shownAmount("100.00", "fr")).toBe("100,00")
    expect(shownAmount("5000.00", "en")).toBe("5,000.00")
    expect(shownAmount("9.99", "en")).toBe("9.99")
    expect(shownAmount("12.5", "en")).toBe("12.5")
    expect(shownAmount("100", "en")).toBe("100")
    // Beyond a float's precision: the digits are the stored ones.
    expect(shownAmount("12345678901234567.89", "en")).toBe("12,345,678,901,234,567.89")
    // Not a decimal: shown as it is.
    expect(shownAmount("five", "fr")).toBe("five")
  })

  it("reads back every amount it shows, in every language's way of writing it", () => {
    const tags = ["en", "fr", "fr-CA", "de", "de-CH", "es", "it", "pt-BR", "pl", "ru", "tr", "hi", "ar", "ja", "zh-CN"]
    const amounts = ["0.00", "9.99", "99.9999", "100.00", "5000.00", "15000.5", "1234567.89", "12345678901234567.89"]
    for (const tag of tags) {
      for (const amount of amounts) {
        expect([tag, typedAmount(shownAmount(amount, tag), tag)]).toEqual([tag, amount])
      }
    }
  })

  it("has every English text in French too, and nothing more", () => {
    expect(keysOf(fr).sort()).toEqual(keysOf(en).sort())
  })
})
