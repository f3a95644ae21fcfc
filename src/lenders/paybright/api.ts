import type { ContractCard, ContractMovement, Lender, LenderAccount, LenderApi, LenderEvidence } from "../lender"
import { randomUUID } from "node:crypto"
import { buildApplicationRedirect } from "./application"
import { readLenderResult, verifyApplicationResult } from "./result"
import { LENDER_READ_RETRIES, LenderClient, longestLenderCallMs } from "./client"
import { LenderNotFoundError } from "../errors"

/** PayBright's API behind the plugin's lender interface: its x_ fields stay here. */
class PayBrightApi implements LenderApi {
  constructor(
    private readonly client: LenderClient,
    private readonly apiKey: string
  ) {}

  async capture(movement: ContractMovement): Promise<LenderEvidence> {
    return evidenceOf(
      await this.client.capture(movement.contract, {
        x_account_id: this.apiKey,
        x_amount: movement.amount,
        x_reference: movement.reference,
        x_currency: movement.currency,
        x_test: movement.test,
      })
    )
  }

  async refund(movement: Pick<ContractMovement, "contract" | "amount">): Promise<LenderEvidence> {
    return evidenceOf(await this.client.refund(movement.contract, movement.amount))
  }

  /** The authorization as the application asked for it: the same reference and amount. */
  async void(movement: ContractMovement & { callbackUrl: string }): Promise<LenderEvidence> {
    return evidenceOf(
      await this.client.voidAuthorization(movement.contract, {
        reference: movement.reference,
        amount: movement.amount,
        currency: movement.currency,
        test: movement.test,
        callbackUrl: movement.callbackUrl,
      })
    )
  }

  async card(contract: string): Promise<ContractCard> {
    return this.client.getVirtualCard(contract)
  }

  /**
   * Looks up the virtual card of a contract that cannot exist: through the same Basic
   * authentication as captures and refunds, 404 (no such contract) means the key and token were
   * accepted, 401 that they were not.
   */
  async checkCredentials(): Promise<void> {
    try {
      await this.client.getVirtualCard(`credentials-check-${randomUUID()}`)
    } catch (error) {
      if (!(error instanceof LenderNotFoundError)) throw error
    }
  }
}

/** The lender's answer as evidence: its scalar fields, as strings. */
function evidenceOf(answer: Record<string, unknown>): LenderEvidence {
  return Object.fromEntries(
    Object.entries(answer)
      .filter(([, value]) => ["string", "number", "boolean"].includes(typeof value))
      .map(([name, value]) => [name, String(value)])
  )
}

/** PayBright, as the plugin uses a lender. */
export const paybright: Lender = {
  name: "PayBright",
  api: (account: LenderAccount) => new PayBrightApi(new LenderClient(account), account.apiKey),
  applicationRedirect: buildApplicationRedirect,
  longestCallMs: (timeoutMs, call) => longestLenderCallMs(timeoutMs, call === "card_read" ? LENDER_READ_RETRIES : 0),
  readResult: readLenderResult,
  verifyResult: verifyApplicationResult,
}
