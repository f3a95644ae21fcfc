import { ContainerRegistrationKeys, MathBN, MedusaError, Modules } from "@medusajs/framework/utils"
import type { BigNumberInput, IPaymentModuleService } from "@medusajs/framework/types"
import type { OrderOfContract } from "../../lib/carried-contract"
import { orderOfContract } from "../../lib/order-collections"
import { resolvedRecordOf } from "../../lib/money-attempt"
import { cartIdOfCollection, orderOfCollection } from "../../lib/medusa-links"
import { appQuery, appScope } from "../../lib/plugin-records"
import { exactAmount, totalOf } from "../../lib/totals"

/**
 * The payment module's rows that Medusa does not hand to a provider: the session's amount
 * (authorizePayment gets only `data`, which the storefront can write to) and the amount of the
 * Capture being made (capturePayment gets only its id), read through the payment module's own
 * service in the application (Medusa creates a Capture or Refund in a transaction of its own
 * before it calls the provider, so the row is there to read). Below them, what the provider reads
 * of the rest of the store through the application: a movement's order, a session's cart total.
 */
function paymentModule(): IPaymentModuleService {
  return appScope().resolve<IPaymentModuleService>(Modules.PAYMENT)
}

/**
 * A Capture or Refund being made, with the payment it belongs to and what that payment held
 * before it: `before` is what Medusa recorded of the same kind (captured, or refunded), and
 * `remaining` what could still move (authorized − captured, or captured − refunded).
 */
export type MovementFacts = {
  amount: BigNumberInput
  payment_id: string
  payment_collection_id: string
  before: BigNumberInput
  remaining: BigNumberInput
  /** For a Refund recording a person's resolution: the resolved record it names. */
  resolves?: string
  /** Every Capture and Refund Medusa has on the payment now, this one included. */
  medusa_rows: ReadonlySet<string>
}

export type PaymentInternals = {
  sessionAmount(
    sessionId: string
  ): Promise<{ amount: BigNumberInput; currency_code: string; payment_collection_id: string }>
  capture(captureId: string): Promise<MovementFacts>
  refund(refundId: string): Promise<MovementFacts>
  /** A payment Medusa is cancelling: its collection (and that collection's status), what was captured of it, whether it is cancelled already. */
  payment(paymentId: string): Promise<{
    payment_collection_id: string
    collection_status: string
    captured: BigNumberInput
    canceled: boolean
  }>
}

export function paymentInternals(): PaymentInternals {
  return {
    async sessionAmount(sessionId) {
      const session = (await paymentModule().retrievePaymentSession(sessionId, {
        select: ["id", "amount", "raw_amount", "currency_code", "payment_collection_id"],
      })) as unknown as Record<string, unknown>
      return {
        amount: (session.raw_amount ?? session.amount) as BigNumberInput,
        currency_code: String(session.currency_code),
        payment_collection_id: String(session.payment_collection_id),
      }
    },
    capture: (captureId) => movement("capture", captureId),
    refund: (refundId) => movement("refund", refundId),
    async payment(paymentId) {
      const payment = (await paymentModule().retrievePayment(paymentId, {
        select: ["id", "payment_collection_id", "canceled_at", "payment_collection.status"],
        relations: ["captures", "payment_collection"],
      })) as unknown as {
        payment_collection_id: string
        canceled_at: Date | null
        payment_collection: { status: string }
        captures: AmountRow[]
      }
      return {
        payment_collection_id: payment.payment_collection_id,
        collection_status: payment.payment_collection.status,
        captured: totalOf(payment.captures),
        canceled: !!payment.canceled_at,
      }
    },
  }
}

type AmountRow = { id: string; amount: BigNumberInput; raw_amount?: BigNumberInput }

/**
 * The Capture or Refund, then its payment with every Capture and Refund of it (two reads: the
 * payment module's service answers a row without the rows that lead back to it).
 */
async function movement(kind: "capture" | "refund", id: string): Promise<MovementFacts> {
  const payments = paymentModule()
  const config = { select: ["id", "amount", "raw_amount", "payment_id", ...(kind === "refund" ? ["note"] : [])] }
  const [row] = (kind === "capture"
    ? await payments.listCaptures({ id }, config)
    : await payments.listRefunds({ id }, config)) as unknown as (AmountRow & {
    payment_id: string
    note?: string | null
  })[]
  if (!row) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, `PayBright found no ${kind} with id ${id} in the payment module`)
  }
  const amounts = (path: string) => [`${path}.id`, `${path}.amount`, `${path}.raw_amount`]
  const payment = (await payments.retrievePayment(row.payment_id, {
    select: ["id", "amount", "raw_amount", "payment_collection_id", ...amounts("captures"), ...amounts("refunds")],
    relations: ["captures", "refunds"],
  })) as unknown as AmountRow & { payment_collection_id: string; captures: AmountRow[]; refunds: AmountRow[] }
  const captured = totalOf(payment.captures)
  const before = totalOf((kind === "capture" ? payment.captures : payment.refunds).filter((other) => other.id !== id))
  return {
    amount: exactAmount(row),
    payment_id: payment.id,
    payment_collection_id: payment.payment_collection_id,
    before,
    remaining: MathBN.sub(kind === "capture" ? exactAmount(payment) : captured, before),
    resolves: resolvedRecordOf(row.note),
    medusa_rows: new Set([...payment.captures, ...payment.refunds].map((other) => other.id)),
  }
}

/**
 * What the cart paying with this collection totals now, exactly; undefined without a cart. A
 * region without automatic taxes lets the storefront raise it (`POST /store/carts/:id/taxes`)
 * without touching the payment session, whose amount then no longer tells. Read from the
 * application, where the cart module is (the provider's own container holds the payment module's).
 */
export async function cartTotalOf(paymentCollectionId: string): Promise<unknown> {
  const scope = appScope()
  const cartId = await cartIdOfCollection(scope.resolve(ContainerRegistrationKeys.QUERY), paymentCollectionId)
  if (!cartId) return undefined
  const [cart] = await scope.resolve(Modules.CART).listCarts({ id: cartId }, { select: ["id", "total"] })
  return (cart as { raw_total?: unknown } | undefined)?.raw_total ?? cart?.total
}

/**
 * The order a payment collection belongs to, with its status and every collection of that order
 * and their payments and sessions (where a contract is carried after an order change); undefined
 * when the collection is a cart's.
 */
export async function orderCollectionsOf(
  paymentCollectionId: string
): Promise<({ order_id: string } & OrderOfContract) | undefined> {
  const query = appQuery()
  const order = await orderOfCollection(query, paymentCollectionId)
  if (!order) return undefined
  return { order_id: order.id, ...(await orderOfContract(query, order.id)) }
}
