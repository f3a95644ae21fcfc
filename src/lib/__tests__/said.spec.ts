import { english, SAID_TEXTS, writeSaid } from "../texts/said"
import { merchantMessage, notStartedMessage } from "../merchant-messages"
import { lenderFact } from "../../lenders/errors"

const placeholders = (template: string) => [...template.matchAll(/\{\{(\w+)\}\}/g)].map((match) => match[1]).sort()
/** Money as a French admin writes it, for the sentences below. */
const frenchMoney = (amount: string) =>
  new Intl.NumberFormat("fr-CA", { style: "currency", currency: "CAD", currencyDisplay: "narrowSymbol" }).format(
    Number(amount)
  )

describe("the sentences a merchant reads, in English and French", () => {
  it("has every English sentence in French, with the same values", () => {
    const missing = Object.keys(SAID_TEXTS.en).filter((code) => SAID_TEXTS.fr[code] === undefined)
    expect(missing).toEqual([])
    const differing = Object.keys(SAID_TEXTS.en).filter(
      (code) => placeholders(SAID_TEXTS.en[code]).join() !== placeholders(SAID_TEXTS.fr[code]).join()
    )
    expect(differing).toEqual([])
    expect(Object.keys(SAID_TEXTS.fr).filter((code) => SAID_TEXTS.en[code] === undefined)).toEqual([])
  })

  it("writes a refused capture in English as the server keeps it, and in French with the admin's money", () => {
    const refused = merchantMessage({
      movement: "capture",
      outcome: "refused",
      amount: "1044.12",
      currency: "cad",
      contract: "51325",
      via: "PayBright",
      fact: lenderFact("rejected", "capture", "Contract on hold at PayBright"),
    })
    expect(english(refused)).toBe(
      "The capture of $1,044.12 CAD on PayBright contract 51325 was not made (PayBright refused the capture: Contract on hold at PayBright); nothing moved, so fix the cause and try again."
    )
    expect(writeSaid(refused, SAID_TEXTS.fr, frenchMoney)).toBe(
      `La capture de ${frenchMoney("1044.12")} sur le contrat PayBright 51325 n’a pas été faite (PayBright a refusé la capture : Contract on hold at PayBright); rien n’a bougé : corrigez la cause, puis réessayez.`
    )
  })

  it("keeps words it did not write as they came, without their final stop, and names the card's processor", () => {
    const doubt = merchantMessage({
      movement: "refund",
      outcome: "in_doubt",
      amount: "10.00",
      currency: "cad",
      contract: "7",
      via: "stripe",
      fact: "Stripe did not answer the refund.",
    })
    expect(english(doubt)).toBe(
      "The refund of $10.00 CAD on the virtual card of PayBright contract 7 through stripe may have been made (Stripe did not answer the refund); check the contract in the PayBright portal and the payment in stripe, then resolve this record as refunded or not, before anything else is captured or refunded on this payment."
    )
    expect(english(notStartedMessage("capture", "lock wait timed out."))).toBe(
      "The capture could not be started (lock wait timed out); nothing moved, so retry it from the order's PayBright panel."
    )
  })
})
