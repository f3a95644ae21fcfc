import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { isSaid } from "../../../lib/texts/said"

/** The statuses Medusa's own error handler gives these errors, kept for the same errors here. */
const STATUS: Partial<Record<string, number>> = {
  [MedusaError.Types.NOT_ALLOWED]: 400,
  [MedusaError.Types.INVALID_DATA]: 400,
  [MedusaError.Types.NOT_FOUND]: 404,
  [MedusaError.Types.CONFLICT]: 409,
}

/**
 * Answers a refusal that carries its sentence as facts (MerchantError) with the English message, as
 * Medusa would, and the sentence, which the admin writes in its language; Medusa's error handler
 * would drop it. Anything else goes on to Medusa's handler.
 */
export function answeringSentences<Req extends MedusaRequest, Res extends MedusaResponse>(
  route: (req: Req, res: Res) => Promise<void>
) {
  return async (req: Req, res: Res, next?: MedusaNextFunction) => {
    try {
      await route(req, res)
    } catch (error) {
      // A workflow hands its steps' errors on serialized: their own fields, not their class.
      const { type, message, said } = (error ?? {}) as { type?: string; message?: string; said?: unknown }
      const status = type ? STATUS[type] : undefined
      if (!status || !isSaid(said)) {
        if (next) return next(error)
        throw error
      }
      res.status(status).json({ type, message, said })
    }
  }
}
