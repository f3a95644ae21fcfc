import en from "./json/en.json"
import fr from "./json/fr.json"

/**
 * The PayBright admin's words, merged by Medusa's admin into its own translations (namespace
 * `translation`, under `paybright.`): the panel, the list and the settings page speak the
 * language the merchant picked in their profile, as Medusa's own pages do. Languages other than
 * English and French fall back to English, as Medusa's do.
 */
export default {
  en: { translation: { paybright: en } },
  fr: { translation: { paybright: fr } },
}
