import { PaymentCollectionStatus } from "@medusajs/framework/utils"
import { toCents } from "./lender-cents"
import { exactAmount, totalOf } from "./totals"
import type { OrderCollectionRow } from "./carried-contract"
import { isPayBright } from "../storefront/provider"

/** The statuses Medusa's payment module gives a collection before any of its payments is authorized. */
const NOT_YET_AUTHORIZED: string[] = [PaymentCollectionStatus.NOT_PAID, PaymentCollectionStatus.AWAITING]

export type OwedAuthorization = {
  collection_id: string
  /** The status the collection reads now, to put back if writing the owed one is undone. */
  from: string
  status: PaymentCollectionStatus.AUTHORIZED | PaymentCollectionStatus.PARTIALLY_AUTHORIZED
}

/**
 * The status Medusa owes each collection of a placed order that still reads as never authorized
 * while a PayBright payment in it stands. Medusa writes the payment, then the collection's status,
 * not in one transaction; when the second write is lost, a repeated completion places the order on
 * the kept payment without writing the status again. Such a collection would show the merchant an
 * unpaid order and send Medusa's order changes down the branch for unpaid collections. The status
 * is Medusa's own rule: authorized when what is authorized covers the collection, in cents.
 */
export function owedAuthorizations(collections: OrderCollectionRow[]): OwedAuthorization[] {
  const owed: OwedAuthorization[] = []
  for (const collection of collections) {
    if (!NOT_YET_AUTHORIZED.includes(collection.status)) continue
    const standing = (collection.payments ?? []).filter(
      (payment) => isPayBright(payment.provider_id) && !payment.canceled_at
    )
    if (!standing.length) continue
    const authorized = totalOf(standing)
    owed.push({
      collection_id: collection.id,
      from: collection.status,
      status:
        toCents(authorized) >= toCents(exactAmount(collection))
          ? PaymentCollectionStatus.AUTHORIZED
          : PaymentCollectionStatus.PARTIALLY_AUTHORIZED,
    })
  }
  return owed
}
