"use client"
/**
 * medusa-payment-paybright/storefront/react: the kit's React parts, as client components (React
 * 18 or 19). Everything else is in medusa-payment-paybright/storefront, with no React.
 */
import { useEffect, useState } from "react"
import { payBrightFinancingMessage, type PayBrightFinancingOptions } from "./financing"
import type { PayBrightAmount, PayBrightLimits } from "./limits"
import { payBrightText } from "./messages"
import { centsText, toCents } from "./money"
import { payBrightRedirectOf, PayBrightSessionError, submitPayBrightForm, type PayBrightSessionLike } from "./session"
import { loadPayBrightWidget, PAYBRIGHT_WIDGET_CONTAINER_CLASS } from "./widget"

export type PayBrightCheckout = {
  /** Whether the session can send the shopper to PayBright. */
  ready: boolean
  /** True from the click until the browser leaves for PayBright. */
  submitting: boolean
  /** A sentence for the shopper, when the session cannot be used or the form could not be sent. */
  error: string | null
  /** The button's words: "Continue to PayBright", "Opening PayBright…". */
  label: string
  /** Posts the session's signed form: the browser leaves for PayBright's application. */
  submit: () => void
}

/**
 * The PayBright step of a payment button, for a storefront's own button component: whether the
 * session is usable, the label, the loading and error states, and `submit`. A session of another
 * provider or without its signed form is refused with a sentence, and nothing is sent; without a
 * session (still being created) the button is simply not ready.
 */
export function usePayBrightCheckout(
  session: PayBrightSessionLike | null | undefined,
  locale?: string | null
): PayBrightCheckout {
  const [submitting, setSubmitting] = useState(false)
  const [failure, setFailure] = useState<string | null>(null)
  // No session yet (still being created): not ready, and nothing to refuse.
  const refusal = session ? sessionRefusal(session, locale) : null

  // Back from PayBright with the browser's back button, the page may be restored as it was left.
  useEffect(() => {
    const reset = (event: PageTransitionEvent) => event.persisted && setSubmitting(false)
    window.addEventListener("pageshow", reset)
    return () => window.removeEventListener("pageshow", reset)
  }, [])

  const submit = () => {
    if (!session || refusal || submitting) return
    setFailure(null)
    setSubmitting(true)
    try {
      submitPayBrightForm(session)
    } catch (error) {
      setSubmitting(false)
      setFailure(sessionRefusal(session, locale) ?? payBrightText("submitFailed", locale))
      if (!(error instanceof PayBrightSessionError)) console.error(error)
    }
  }

  return {
    ready: !!session && !refusal,
    submitting,
    error: refusal ?? failure,
    label: payBrightText(submitting ? "opening" : "continue", locale),
    submit,
  }
}

function sessionRefusal(session: PayBrightSessionLike | null | undefined, locale?: string | null): string | null {
  try {
    payBrightRedirectOf(session)
    return null
  } catch (error) {
    const code = error instanceof PayBrightSessionError ? error.code : "no_form"
    return payBrightText(code === "not_paybright" ? "notPayBright" : "noForm", locale)
  }
}

export type PayBrightButtonProps = {
  session: PayBrightSessionLike | null | undefined
  locale?: string | null
  /** Disables the button while the rest of the checkout is not ready (address, shipping). */
  disabled?: boolean
  className?: string
  errorClassName?: string
  "data-testid"?: string
}

/** A complete PayBright payment button: the label, its loading state and, below it, why it cannot be used. */
export function PayBrightButton(props: PayBrightButtonProps) {
  const checkout = usePayBrightCheckout(props.session, props.locale)
  return (
    <>
      <button
        type="button"
        className={props.className}
        disabled={props.disabled || !checkout.ready || checkout.submitting}
        aria-busy={checkout.submitting}
        onClick={checkout.submit}
        data-testid={props["data-testid"] ?? "paybright-button"}
      >
        {checkout.label}
      </button>
      {checkout.error && (
        <p role="alert" className={props.errorClassName} data-testid="paybright-error">
          {checkout.error}
        </p>
      )}
    </>
  )
}

export type PayBrightFinancingProps = {
  /** The limits and terms from `GET /store/paybright/limits` (`payBrightLimitsOf`). */
  limits: PayBrightLimits | undefined
  /** The price or cart: `{ total, currency_code }`, in major units. */
  price: PayBrightAmount
  locale?: string | null
  /** `"price"` on a product page (the note says before tax and shipping), `"total"` for a cart. */
  basis?: PayBrightFinancingOptions["basis"]
  /** The storefront's own way to write money, so the estimate reads like the prices beside it. */
  formatMoney?: PayBrightFinancingOptions["formatMoney"]
  /**
   * Show PayBright's own widget instead of the estimate when the merchant saved its public key.
   * PayBright's widget script is one per page (it reads its settings from its own script tag): ask
   * for it on a product or cart page, not in a list of products.
   */
  widget?: boolean
  className?: string
  noteClassName?: string
}

/**
 * "or from $X/month with PayBright", labelled an estimate, for a product or cart page; or, with
 * `widget`, PayBright's promotional widget when the merchant configured its public key. Renders
 * nothing outside the limits, in another currency, or without configured terms.
 */
export function PayBrightFinancing(props: PayBrightFinancingProps) {
  const message = payBrightFinancingMessage(props.limits, props.price, props.locale, {
    basis: props.basis,
    formatMoney: props.formatMoney,
  })
  const widget = props.widget ? props.limits?.promotional_widget : null
  if (!message) return null
  if (widget) {
    return (
      <PayBrightWidget
        widget={widget}
        amount={centsText(toCents(props.price.total!))}
        locale={props.locale}
        className={props.className}
      />
    )
  }
  return (
    <div className={props.className} data-testid="paybright-financing">
      <p>{message.text}</p>
      <p className={props.noteClassName}>
        <small>{message.note}</small>
      </p>
    </div>
  )
}

function PayBrightWidget(props: {
  widget: NonNullable<PayBrightLimits["promotional_widget"]>
  /** Two-decimal string. */
  amount: string
  locale?: string | null
  className?: string
}) {
  const { amount, locale } = props
  const { public_key, script_url } = props.widget
  useEffect(() => {
    loadPayBrightWidget({ public_key, script_url }, amount, locale).catch((error) => console.error(error))
  }, [public_key, script_url, amount, locale])
  return (
    <div
      className={[PAYBRIGHT_WIDGET_CONTAINER_CLASS, props.className].filter(Boolean).join(" ")}
      data-testid="paybright-widget"
    />
  )
}
