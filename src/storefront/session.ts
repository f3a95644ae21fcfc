import { isPayBright } from "./provider"

/** The signed form a PayBright payment session carries in `data.redirect`: what sends the shopper to the lender. */
export type PayBrightRedirect = { url: string; method: string; fields: Record<string, string> }

/** The parts of a Store API payment session the kit reads; a Medusa `StorePaymentSession` fits. */
export type PayBrightSessionLike = { provider_id: string; data?: Record<string, unknown> | null }

/** Why a session cannot send the shopper to PayBright; `message` is the kit's sentence key for the shopper. */
export class PayBrightSessionError extends Error {
  constructor(
    readonly code: "not_paybright" | "no_form",
    message: string
  ) {
    super(message)
    this.name = "PayBrightSessionError"
  }
}

/**
 * The signed form of a PayBright session. Throws `PayBrightSessionError` for a session of another
 * provider (`not_paybright`) or one without a complete form (`no_form`: create the session again).
 */
export function payBrightRedirectOf(session: PayBrightSessionLike | null | undefined): PayBrightRedirect {
  if (!session || !isPayBright(session.provider_id)) {
    throw new PayBrightSessionError("not_paybright", `payment session of ${session?.provider_id ?? "no provider"}`)
  }
  const redirect = session.data?.redirect as Partial<PayBrightRedirect> | undefined
  const fields = redirect?.fields
  const complete =
    typeof redirect?.url === "string" &&
    /^https?:\/\//.test(redirect.url) &&
    typeof fields === "object" &&
    fields !== null &&
    Object.values(fields).every((value) => typeof value === "string") &&
    typeof fields.x_signature === "string"
  if (!complete) {
    throw new PayBrightSessionError("no_form", "the PayBright session has no signed form in data.redirect")
  }
  return { url: redirect.url!, method: (redirect.method ?? "POST").toUpperCase(), fields: fields! }
}

/**
 * Sends the shopper's browser to PayBright: posts the session's signed form, as a form (the lender
 * answers with its application page, not JSON). Browser only. Throws `PayBrightSessionError` when
 * the session cannot be used; the page is left as it was.
 */
export function submitPayBrightForm(session: PayBrightSessionLike | null | undefined, doc: Document = document): void {
  const { url, method, fields } = payBrightRedirectOf(session)
  const form = doc.createElement("form")
  form.method = method
  form.action = url
  form.style.display = "none"
  for (const [name, value] of Object.entries(fields)) {
    const input = doc.createElement("input")
    input.type = "hidden"
    input.name = name
    input.value = value
    form.appendChild(input)
  }
  doc.body.appendChild(form)
  form.submit()
}
