import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { LenderError } from "../../lenders/errors"
import { providersInForce } from "../../lib/provider-registry"
import { clientsOf } from "../../lib/provider-clients"
import type { CardRetrieval } from "../../lib/lender-result-decision"

/** Medusa hands steps its container under a narrower type than the helpers take. */
const scopeOf = (container: unknown) => container as MedusaContainer

export const retrieveVirtualCardStepId = "paybright-retrieve-virtual-card-step"
export type RetrieveVirtualCardInput = { provider_id: string; contract: string }
/**
 * A virtual-card contract's card retrieved with its registration's credentials, which proves the
 * approval; undefined for a registration paid by in-store capture. A read at the lender: nothing
 * to undo. Never fails: a card not issued yet, or a lender that does not answer, leaves the
 * approval waiting for its card.
 */
export const retrieveVirtualCardStep = createStep(
  retrieveVirtualCardStepId,
  async (input: RetrieveVirtualCardInput, { container }) => {
    const retrieval = await retrieveCard(scopeOf(container), input)
    return new StepResponse(retrieval)
  }
)

async function retrieveCard(
  scope: MedusaContainer,
  input: RetrieveVirtualCardInput
): Promise<CardRetrieval | undefined> {
  try {
    const registration = (await providersInForce(scope)).find(({ providerId }) => providerId === input.provider_id)
    if (!registration) return undefined
    const { mover } = clientsOf(registration)
    if (!mover.confirm) return undefined
    await mover.confirm(input.contract)
    return { retrieved: true, at: new Date().toISOString() }
  } catch (error) {
    const why = error instanceof LenderError ? `${error.code}${error.status ? ` ${error.status}` : ""}` : "unexpected"
    scope
      .resolve<Logger>("logger")
      .warn(`PayBright: the virtual card of contract ${input.contract} could not be retrieved yet (${why})`)
    return { retrieved: false }
  }
}
