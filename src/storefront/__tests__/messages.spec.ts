import fs from "node:fs"
import path from "node:path"
import {
  isPayBrightCheckoutStatus,
  PAYBRIGHT_CHECKOUT_STATUSES,
  PAYBRIGHT_MESSAGES,
  payBrightLanguage,
  payBrightStatusMessage,
  payBrightText,
  withoutPayBrightStatus,
} from "../messages"

describe("shopper messages", () => {
  it("has every message in English and French, with the same marks to fill in", () => {
    const marks = (text: string) => [...text.matchAll(/\{\w+\}/g)].map(([mark]) => mark).sort()
    expect(Object.keys(PAYBRIGHT_MESSAGES.fr).sort()).toEqual(Object.keys(PAYBRIGHT_MESSAGES.en).sort())
    for (const key of Object.keys(PAYBRIGHT_MESSAGES.en) as (keyof typeof PAYBRIGHT_MESSAGES.en)[]) {
      expect(PAYBRIGHT_MESSAGES.fr[key]).not.toBe(PAYBRIGHT_MESSAGES.en[key])
      expect(marks(PAYBRIGHT_MESSAGES.fr[key])).toEqual(marks(PAYBRIGHT_MESSAGES.en[key]))
    }
  })

  it("has a sentence for every status the plugin sends the shopper back with", () => {
    for (const status of PAYBRIGHT_CHECKOUT_STATUSES) {
      expect(payBrightStatusMessage(status, "en")).toMatch(/\.$/)
      expect(payBrightStatusMessage(status, "fr")).toMatch(/\.$/)
    }
  })

  it("reads paybright_status from search params, and ignores anything else", () => {
    expect(payBrightStatusMessage(new URLSearchParams("step=payment&paybright_status=declined"))).toBe(
      "PayBright did not approve the application. Please choose another way to pay."
    )
    expect(payBrightStatusMessage(new URLSearchParams("paybright_status=declined"), "fr-CA")).toBe(
      "PayBright n’a pas approuvé la demande. Veuillez choisir un autre mode de paiement."
    )
    expect(payBrightStatusMessage(new URLSearchParams("step=payment"))).toBeUndefined()
    expect(payBrightStatusMessage("<script>")).toBeUndefined()
    expect(payBrightStatusMessage(null)).toBeUndefined()
  })

  it("does not ask for another way to pay when the cart has none", () => {
    const only = { otherMethods: false }
    expect(payBrightStatusMessage("declined", "en", only)).toBe(
      "PayBright did not approve the application, and this store has no other way to pay for this cart. Please contact the store."
    )
    expect(payBrightStatusMessage("declined", "fr", only)).toMatch(/aucun autre mode de paiement/)
    for (const status of ["declined", "cancelled", "error"]) {
      for (const locale of ["en", "fr"]) {
        const sentence = payBrightStatusMessage(status, locale, only)
        expect(sentence).not.toBe(payBrightStatusMessage(status, locale))
        expect(sentence).not.toMatch(
          /another way to pay|choose a payment method|choisir (de nouveau )?un (autre )?mode/
        )
      }
    }
    // The others never asked for one.
    expect(payBrightStatusMessage("pending", "en", only)).toBe(payBrightStatusMessage("pending", "en"))
    expect(payBrightStatusMessage("declined", "en", { otherMethods: true })).toBe(
      payBrightStatusMessage("declined", "en")
    )
  })

  it("gives the page's address back without paybright_status, everything else as written", () => {
    expect(withoutPayBrightStatus("/ca/checkout?step=review&paybright_status=declined")).toBe(
      "/ca/checkout?step=review"
    )
    expect(withoutPayBrightStatus("https://shop.example/fr/checkout?paybright_status=cancelled#payment")).toBe(
      "https://shop.example/fr/checkout#payment"
    )
    expect(withoutPayBrightStatus("?paybright_status=error&step=payment")).toBe("?step=payment")
    expect(withoutPayBrightStatus("/ca/checkout?step=payment")).toBe("/ca/checkout?step=payment")
    expect(withoutPayBrightStatus("/ca/checkout")).toBe("/ca/checkout")
  })

  it("picks French for any French locale, English otherwise", () => {
    expect(["fr", "fr-CA", "FR_ca", " fr"].map(payBrightLanguage)).toEqual(["fr", "fr", "fr", "fr"])
    expect(["en", "en-CA", "de", "", null, undefined].map(payBrightLanguage)).toEqual(Array(6).fill("en"))
    expect(payBrightText("financing", "en", { amount: "$1.00" })).toBe("or from $1.00/month with PayBright")
  })
})

describe("the storefront page's table of paybright_status", () => {
  it("shows the kit's own sentences, so the two never differ", () => {
    const readme = fs.readFileSync(path.resolve(__dirname, "../../../docs/storefront.md"), "utf8")
    const rows = [...readme.matchAll(/^\s*\| `(\w+)`\s+\|[^|]+\|\s+(.+?)\s+\|$/gm)].filter(([, status]) =>
      isPayBrightCheckoutStatus(status)
    )
    expect(rows.map(([, status]) => status)).toEqual([...PAYBRIGHT_CHECKOUT_STATUSES])
    for (const [, status, shown] of rows) expect(shown).toBe(payBrightStatusMessage(status, "en"))
  })
})
