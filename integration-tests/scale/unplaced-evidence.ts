import fs from "node:fs"
import path from "node:path"
import { Client } from "pg"
import type { ContractView } from "../../src/lenders/paybright/simulator"

/** What one approval without an order left in the store's database, for reading after a failed run. */
type UnplacedEvidence = {
  contract: string
  session_id: string
  lender_status: string
  approvals: unknown[]
  money_records: unknown[]
  events: unknown[]
  payment_sessions: unknown[]
  payments: unknown[]
  /** The cart's links to orders, each with its order's row (or null where the order is gone). */
  orders_of_cart: unknown[]
}

/**
 * Writes, beside the processes' logs, the approval rows, money records, events, Medusa payment
 * sessions, payments and the cart's orders of every contract the lender approved that has no order
 * in Medusa's books; answers the file written, or undefined when there is none. Only the fields a
 * reader needs: session and payment data carry the lender's signed fields, nothing secret, but are
 * left out all the same.
 */
export async function keepUnplacedEvidence(
  databaseUrl: string,
  unplaced: ContractView[],
  folder: string
): Promise<string | undefined> {
  if (unplaced.length === 0) return undefined
  const client = new Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    const rows = async (sql: string, values: unknown[]) => (await client.query(sql, values)).rows
    const evidence: UnplacedEvidence[] = []
    for (const contract of unplaced) {
      const approvals = await rows(
        `select id, contract, session_id, provider_id, cart_id, order_id, amount, currency_code, state, reason,
                placement_error, created_at, updated_at
           from paybright_approval where contract = $1`,
        [contract.gateway_reference]
      )
      const cartIds = approvals.map((approval) => approval.cart_id).filter(Boolean)
      evidence.push({
        contract: contract.gateway_reference,
        session_id: contract.reference,
        lender_status: contract.status,
        approvals,
        money_records: await rows(
          `select id, kind, trigger, state, payment_id, medusa_id, amount, currency_code, message, created_at, updated_at
             from paybright_money_record where contract = $1 order by created_at`,
          [contract.gateway_reference]
        ),
        events: await rows(
          `select kind, message, created_at from paybright_event where contract = $1 order by created_at`,
          [contract.gateway_reference]
        ),
        payment_sessions: await rows(
          `select id, payment_collection_id, status, amount, data->>'paybright_status' as paybright_status,
                  authorized_at, created_at, updated_at, deleted_at
             from payment_session where id = $1`,
          [contract.reference]
        ),
        payments: await rows(
          `select id, payment_collection_id, amount, data->>'gateway_reference' as gateway_reference,
                  captured_at, canceled_at, created_at, deleted_at
             from payment where payment_session_id = $1`,
          [contract.reference]
        ),
        orders_of_cart: await rows(
          `select l.cart_id, l.order_id, l.created_at as linked_at, l.deleted_at as unlinked_at,
                  to_jsonb(o) - 'metadata' as "order"
             from order_cart l left join "order" o on o.id = l.order_id
            where l.cart_id = any($1)`,
          [cartIds]
        ),
      })
    }
    const file = path.join(folder, "unplaced-approvals.json")
    fs.writeFileSync(file, JSON.stringify(evidence, null, 2))
    return file
  } finally {
    await client.end()
  }
}
