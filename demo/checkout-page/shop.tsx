import { useEffect, useState } from "react"
import { createRoot } from "react-dom/client"
import {
  fetchPayBrightLimits,
  isPayBright,
  isPayBrightOffered,
  payBrightLimitsOf,
  payBrightStatusMessage,
  payBrightText,
  payBrightUnavailableMessage,
  withoutPayBrightStatus,
  type PayBrightLimits,
  type PayBrightSessionLike,
} from "medusa-payment-paybright/storefront"
import { PayBrightButton, PayBrightFinancing } from "medusa-payment-paybright/storefront/react"
import { SHOPPER_ADDRESS } from "../../test-support/shopper-address"

/** Written into the page by the demo's server (server.ts). */
type DemoState = {
  storeUrl: string
  publishableKey: string
  regionId: string
  shippingOptionId: string
  view: "shop" | "checkout" | "order" | "not-found"
  cartId: string | null
  language: "en" | "fr"
  country: string
}
const state = (window as unknown as { DEMO_STATE: DemoState }).DEMO_STATE
const CART_COOKIE = "demo_cart_id"
const language = state.language
const currency = "cad"

/** The Store API, as any storefront calls it: the publishable key, JSON, the store's message on failure. */
async function store<T>(path: string, body?: unknown): Promise<T> {
  const response = await fetch(state.storeUrl + path, {
    method: body ? "POST" : "GET",
    headers: { "content-type": "application/json", "x-publishable-api-key": state.publishableKey },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const json = await response.json()
  if (!response.ok) throw new Error(json.message || response.statusText)
  return json as T
}

function readCookie(name: string): string | undefined {
  const found = document.cookie.split("; ").find((pair) => pair.startsWith(`${name}=`))
  return found ? decodeURIComponent(found.slice(name.length + 1)) : undefined
}

function writeCookie(name: string, value: string, attributes: string) {
  document.cookie = `${name}=${encodeURIComponent(value)}; Path=/; ${attributes}`
}

/** The shop's one way to write money: its own figures and PayBright's are written alike. */
const formatMoney = (amount: number, currencyCode: string) =>
  new Intl.NumberFormat(language === "fr" ? "fr-CA" : "en-CA", { style: "currency", currency: currencyCode }).format(
    amount
  )
const money = (amount: number) => formatMoney(amount, currency)

function usePayBrightLimits(): PayBrightLimits | undefined | "loading" {
  const [limits, setLimits] = useState<PayBrightLimits | undefined | "loading">("loading")
  useEffect(() => {
    fetchPayBrightLimits({ backendUrl: state.storeUrl, publishableKey: state.publishableKey })
      .then((all) => setLimits(payBrightLimitsOf(all)))
      .catch(() => setLimits(undefined))
  }, [])
  return limits
}

type Product = {
  id: string
  title: string
  variants: { id: string; calculated_price: { calculated_amount: number } }[]
}

function Shop() {
  const [products, setProducts] = useState<Product[]>()
  const [error, setError] = useState<string>()
  const [busy, setBusy] = useState<string>()
  const limits = usePayBrightLimits()
  useEffect(() => {
    store<{ products: Product[] }>(
      `/store/products?region_id=${state.regionId}&fields=id,title,variants.id,variants.calculated_price`
    )
      .then(({ products }) => setProducts(products))
      .catch((failure: Error) => setError(failure.message))
  }, [])

  /** A cart with the product, the shopper's addresses and shipping, kept in the Strict cookie, then checkout. */
  const buy = async (variantId: string) => {
    setBusy(variantId)
    setError(undefined)
    try {
      // As Medusa's starters do: the cookie's cart if there is one, else a new one.
      const cartId =
        readCookie(CART_COOKIE) ??
        (
          await store<{ cart: { id: string } }>("/store/carts", {
            region_id: state.regionId,
            email: "jeanne@example.com",
            shipping_address: SHOPPER_ADDRESS,
            billing_address: SHOPPER_ADDRESS,
          })
        ).cart.id
      writeCookie(CART_COOKIE, cartId, "Max-Age=604800; SameSite=Strict")
      await store(`/store/carts/${cartId}/line-items`, { variant_id: variantId, quantity: 1 })
      await store(`/store/carts/${cartId}/shipping-methods`, { option_id: state.shippingOptionId })
      location.assign(`/${state.country}/checkout?step=payment`)
    } catch (failure) {
      setBusy(undefined)
      setError((failure as Error).message)
    }
  }

  if (error && !products) return <p className="error">{error}</p>
  if (!products || limits === "loading") return <p>…</p>
  return (
    <>
      {error && <p className="error">{error}</p>}
      <div className="products">
        {products.map((product) => {
          const variant = product.variants[0]
          const total = variant.calculated_price.calculated_amount
          return (
            <div className="product" key={product.id}>
              <h3>{product.title}</h3>
              <div className="price">{money(total)}</div>
              <PayBrightFinancing
                limits={limits}
                price={{ total, currency_code: currency }}
                basis="price"
                formatMoney={formatMoney}
                locale={language}
                className="financing"
              />
              <button className="buy" disabled={!!busy} onClick={() => void buy(variant.id)}>
                {language === "fr" ? "Acheter" : "Buy"}
              </button>
            </div>
          )
        })}
      </div>
    </>
  )
}

type Cart = {
  id: string
  total: number
  currency_code: string
  completed_at: string | null
  items: Item[]
}

/** Checkout's payment step: PayBright if the cart is within its limits, the reason the shopper is back, the button. */
function Checkout({ cartId }: { cartId: string }) {
  const [cart, setCart] = useState<Cart>()
  const [session, setSession] = useState<PayBrightSessionLike>()
  const [error, setError] = useState<string>()
  const limits = usePayBrightLimits()
  // PayBright is this shop's only way to pay: the sentences say so rather than suggest another.
  // Read once, then taken out of the address, so that coming back to this step says it no more.
  const [status] = useState(() =>
    payBrightStatusMessage(new URLSearchParams(location.search), language, { otherMethods: false })
  )
  useEffect(() => {
    history.replaceState(history.state, "", withoutPayBrightStatus(location.href))
  }, [])

  useEffect(() => {
    // Whole items: Medusa 2.18 leaves item quantities, and so the total, out when item fields are
    // named one by one beside the total.
    store<{ cart: Cart }>(`/store/carts/${cartId}?fields=id,total,currency_code,completed_at,*items`)
      .then(({ cart }) => setCart(cart))
      .catch((failure: Error) => setError(failure.message))
  }, [cartId])

  const offered = cart !== undefined && limits !== "loading" && isPayBrightOffered(limits, cart)
  useEffect(() => {
    if (!cart || !offered) return
    // Choosing PayBright creates its session, with the signed form the button posts.
    const choose = async () => {
      const { payment_collection } = await store<{ payment_collection: { id: string } }>("/store/payment-collections", {
        cart_id: cart.id,
      })
      const { payment_collection: chosen } = await store<{
        payment_collection: { payment_sessions: PayBrightSessionLike[] }
      }>(`/store/payment-collections/${payment_collection.id}/payment-sessions`, {
        provider_id: "pp_paybright_paybright",
      })
      setSession(chosen.payment_sessions.find((candidate) => isPayBright(candidate.provider_id)))
    }
    choose().catch((failure: Error) => setError(failure.message))
  }, [cart, offered])

  return (
    <>
      {status && (
        <p className="notice" id="notice" role="status">
          {status}
        </p>
      )}
      {error && <p className="error">{error}</p>}
      {cart && (
        <div className="panel" id="cart">
          <h2>{language === "fr" ? "Paiement" : "Payment"}</h2>
          <Items items={cart.items} />
          <p>
            Total: <strong id="cart-total">{money(cart.total)}</strong>
          </p>
          {limits === "loading" ? null : offered ? (
            <>
              <h3>{payBrightText("title", language)}</h3>
              <PayBrightFinancing
                limits={limits}
                price={cart}
                basis="total"
                formatMoney={formatMoney}
                locale={language}
                className="financing"
                widget
              />
              <p id="redirect-notice">{payBrightText("redirectNotice", language)}</p>
              <PayBrightButton session={session} locale={language} disabled={!session} errorClassName="error" />
            </>
          ) : (
            <p id="not-offered">
              {payBrightUnavailableMessage(limits, cart, language, { formatMoney }) ??
                (language === "fr"
                  ? "PayBright n’est pas offert pour ce panier."
                  : "PayBright is not offered for this cart.")}
            </p>
          )}
        </div>
      )}
    </>
  )
}

type Item = { id: string; title: string; quantity: number }

function Items({ items }: { items: Item[] }) {
  return (
    <ul>
      {items.map((item) => (
        <li key={item.id}>
          {item.quantity} × {item.title}
        </li>
      ))}
    </ul>
  )
}

type Order = {
  id: string
  display_id: number
  total: number
  items: Item[]
  payment_collections?: { payments?: { provider_id: string }[] }[]
}

function OrderConfirmed({ orderId }: { orderId: string }) {
  const [order, setOrder] = useState<Order>()
  const [error, setError] = useState<string>()
  useEffect(() => {
    store<{ order: Order }>(`/store/orders/${orderId}?fields=id,display_id,total,*items,*payment_collections.payments`)
      .then(({ order }) => setOrder(order))
      .catch((failure: Error) => setError(failure.message))
  }, [orderId])
  if (error) return <p className="error">{error}</p>
  if (!order) return <p>…</p>
  const provider = order.payment_collections?.[0]?.payments?.[0]?.provider_id
  return (
    <div className="panel done" id="confirmation">
      <h2>{language === "fr" ? "Commande passée" : "Order placed"}</h2>
      <p>
        Order <strong id="order-id">{order.id}</strong> (#{order.display_id}) for{" "}
        <strong id="order-total">{money(order.total)}</strong>, paid with{" "}
        <strong id="order-payment">{isPayBright(provider) ? payBrightText("title", language) : provider}</strong>.
      </p>
      <Items items={order.items} />
      <p>
        <a href={`/${state.country}`} id="continue-shopping">
          {language === "fr" ? "Continuer vos achats" : "Continue shopping"}
        </a>
      </p>
    </div>
  )
}

function Page() {
  const orderId = /\/order\/([^/]+)\/confirmed$/.exec(location.pathname)?.[1]
  const choose = (lang: "en" | "fr") => {
    writeCookie("demo_lang", lang, "SameSite=Lax")
    location.reload()
  }
  return (
    <>
      <header>
        <strong>PayBright Demo Furniture</strong>
        <span>
          a page served by the demo, built on medusa-payment-paybright/storefront
          <a href="#" id="lang-en" onClick={() => choose("en")}>
            EN
          </a>
          <a href="#" id="lang-fr" onClick={() => choose("fr")}>
            FR
          </a>
        </span>
      </header>
      <main>
        {state.view === "shop" && <Shop />}
        {state.view === "checkout" && state.cartId && <Checkout cartId={state.cartId} />}
        {state.view === "order" && orderId && <OrderConfirmed orderId={orderId} />}
        {state.view === "not-found" && (
          <p id="not-found">{language === "fr" ? "Page introuvable." : "Page not found."}</p>
        )}
      </main>
    </>
  )
}

createRoot(document.getElementById("root")!).render(<Page />)
