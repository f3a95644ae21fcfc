import i18next from "i18next"
import translations from "../../i18n"
import { PAYBRIGHT_SETTINGS_CODES, type PayBrightSettingsIssue } from "../../../lib/admin-types"
import { refusalText, settingsSentence, type Translate } from "../settings-text"

/** The admin's words as Medusa's admin loads them (its i18next, values not escaped), in one language. */
async function language(lng: "en" | "fr"): Promise<Translate> {
  const instance = i18next.createInstance()
  await instance.init({ lng, resources: translations, interpolation: { escapeValue: false } })
  return (key, values) => instance.t(key, values)
}

const issue = (
  field: PayBrightSettingsIssue["field"],
  code: PayBrightSettingsIssue["code"],
  values: PayBrightSettingsIssue["values"] = {}
): PayBrightSettingsIssue => ({ field, code, values, message: "(the server's English)" })

/** Values of the kinds each code carries, for sentences written with all of them. */
const SAMPLE_VALUES = {
  option: "backendUrl",
  other: "minOrderAmount",
  months: "financingMonths",
  apr: "financingApr",
  value: "1500.00",
  example: "100.00",
  min: 1,
  max: "99.9999",
  currencies: "CAD",
  environment: "sandbox",
  provider: "pp_paybright_paybright",
  version: 3,
  variable: "PAYBRIGHT_SETTINGS_KEY",
  needed: 276,
  configured: 120,
}

describe("what the settings' server said, in the merchant's language", () => {
  it("writes a field's problem with the form's labels and the language's amounts", async () => {
    const [en, fr] = [await language("en"), await language("fr")]
    const reversed = issue("maxOrderAmount", "not_less_than", {
      option: "maxOrderAmount",
      other: "minOrderAmount",
      value: "1500.00",
    })
    // The English as the page wrote it before it wrote from facts.
    expect(settingsSentence(en, "en", reversed)).toBe(
      "Maximum order total must not be less than Minimum order total (1,500.00)"
    )
    expect(settingsSentence(fr, "fr", reversed)).toBe(
      "«\u00a0Total de commande maximal\u00a0» ne doit pas être inférieur à «\u00a0Total de commande minimal\u00a0» (1\u202f500,00)"
    )
    const format = issue("financingApr", "percentage_format", {
      option: "financingApr",
      max: "99.9999",
      example: "9.99",
    })
    expect(settingsSentence(en, "en", format)).toBe(
      "APR in the estimate, in percent must be a percentage from 0 to 99.9999, such as 9.99"
    )
    expect(settingsSentence(fr, "fr", format)).toBe(
      "«\u00a0TAP de l’estimation, en pour cent\u00a0» doit être un pourcentage de 0 à 99,9999, comme 9,99"
    )
    // The Stripe key's option names its field on the page.
    const stripe = issue("cardProcessorSecretKey", "required", { option: "cardProcessor.options.secretKey" })
    expect(settingsSentence(fr, "fr", stripe)).toBe("«\u00a0Clé secrète Stripe\u00a0» est obligatoire")
  })

  it("confirms a save in the language's words for the lender's environment", async () => {
    const accepted = { code: "credentials_accepted" as const, values: { environment: "sandbox" } }
    expect(settingsSentence(await language("en"), "en", accepted)).toBe(
      "PayBright (sandbox) accepted the API key and token."
    )
    expect(settingsSentence(await language("fr"), "fr", accepted)).toBe(
      "PayBright (bac à sable) a accepté la clé et le jeton d’API."
    )
  })

  it("puts each field's first problem beside it, and a problem of no field on the page above the form", async () => {
    const fr = await language("fr")
    const fields = ["shopName", "maxOrderAmount"]
    const refused = refusalText(
      fr,
      "fr",
      [
        issue("shopName", "empty", { option: "shopName" }),
        issue("shopName", "too_long", { option: "shopName", max: 200 }),
        issue(null, "https_required", { option: "backendUrl" }),
        issue(null, "credentials_unanswered", { environment: "sandbox" }),
      ],
      fields
    )
    expect(refused.fields).toEqual({ shopName: "«\u00a0Nom de la boutique\u00a0» ne doit pas être vide" })
    expect(refused.problem).toBe(
      "Non enregistré\u00a0: corrigez les champs indiqués ci-dessous. Non enregistré\u00a0: «\u00a0backendUrl\u00a0» doit être une URL https en production (seules les adresses locales peuvent utiliser http); les identifiants n’ont pas pu être vérifiés\u00a0: PayBright (bac à sable) n’a pas répondu\u00a0; réessayez dans un instant."
    )
    const unanswered = refusalText(
      await language("en"),
      "en",
      [issue(null, "credentials_unanswered", { environment: "sandbox" })],
      fields
    )
    // The English the server answers (and the page showed) before.
    expect(unanswered).toEqual({
      fields: {},
      problem:
        "Not saved: the credentials could not be checked: PayBright (sandbox) did not answer; try again in a moment.",
      told: "the credentials could not be checked: PayBright (sandbox) did not answer; try again in a moment.",
    })
  })

  it("tells a token PayBright refused in the toast too, not only beside its field below the fold", async () => {
    for (const [lng, sentence] of [
      ["en", "PayBright (sandbox) did not accept this API key and token; check both in the PayBright portal."],
      [
        "fr",
        "PayBright (bac à sable) n’a pas accepté cette clé et ce jeton d’API\u00a0; vérifiez-les tous deux dans le portail PayBright.",
      ],
    ] as const) {
      const refused = refusalText(
        await language(lng),
        lng,
        [issue("apiToken", "credentials_refused", { environment: "sandbox" })],
        ["apiToken"]
      )
      expect(refused.fields).toEqual({ apiToken: sentence })
      expect(refused.told).toBe(sentence)
    }
  })

  it("has a sentence for every code in both languages, French without the English words", async () => {
    const [en, fr] = [await language("en"), await language("fr")]
    for (const code of PAYBRIGHT_SETTINGS_CODES) {
      const facts = { code, values: SAMPLE_VALUES, field: "apiToken" as const }
      const [english, french] = [settingsSentence(en, "en", facts), settingsSentence(fr, "fr", facts)]
      expect([code, english]).not.toEqual([code, `paybright.settings.says.${code}`])
      expect([code, french]).not.toEqual([code, english])
      expect([code, `${english} ${french}`]).not.toEqual([code, expect.stringMatching(/{{|}}/)])
      expect([code, french]).not.toEqual([code, expect.stringMatching(/sandbox|worker/i)])
    }
  })
})
