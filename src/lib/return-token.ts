import { seal, unseal } from "./sealed"

/** Which checkout the lender's callback, the shopper's return or a cancellation belongs to. */
export type ReturnContext = { session_id: string; payment_collection_id: string; expires_at: number }

/** How long a cancel link tells anything about its checkout: a day covers any application. */
const RETURN_TOKEN_HOURS = 24

/** The sealed `ctx` of the URLs the lender sends the shopper and its callback back to. */
export function returnToken(apiToken: string, sessionId: string, paymentCollectionId: string): string {
  const context: ReturnContext = {
    session_id: sessionId,
    payment_collection_id: paymentCollectionId,
    expires_at: Math.floor(Date.now() / 1000) + RETURN_TOKEN_HOURS * 3600,
  }
  return seal(apiToken, "return", "url", context)
}

/** The context a `ctx` token carries, if this store sealed it; `fresh` says whether it is still within its day. */
export function readReturnToken(apiToken: string, token: unknown): (ReturnContext & { fresh: boolean }) | undefined {
  const context = unseal<ReturnContext>(apiToken, "return", "url", token)
  if (!context || typeof context.session_id !== "string" || typeof context.payment_collection_id !== "string") {
    return undefined
  }
  return { ...context, fresh: context.expires_at * 1000 > Date.now() }
}
