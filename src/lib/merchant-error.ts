import { MedusaError } from "@medusajs/framework/utils"
import { english, type Said } from "./texts/said"

/**
 * An error whose message a merchant reads: Medusa's error in English, as its API answers it, with
 * the sentence as facts for the plugin's own routes to hand the admin (which writes it in its
 * language).
 */
export class MerchantError extends MedusaError {
  constructor(
    type: (typeof MedusaError.Types)[keyof typeof MedusaError.Types],
    readonly said: Said
  ) {
    super(type, english(said))
  }
}
