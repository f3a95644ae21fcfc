import { createHmac, randomBytes } from "node:crypto"

/**
 * The Stripe-Signature header Stripe puts on a webhook: `t=<unix seconds>,v1=<hex HMAC-SHA256 of
 * "<t>.<payload>" with the endpoint's signing secret>`, which `stripe.webhooks.constructEvent`
 * verifies (within five minutes of t).
 */
export function stripeSignature(payload: string, secret: string, timestamp = Math.floor(Date.now() / 1000)) {
  const v1 = createHmac("sha256", secret).update(`${timestamp}.${payload}`, "utf8").digest("hex")
  return `t=${timestamp},v1=${v1}`
}

/** Posts an event about `object` to a webhook endpoint as Stripe does; answers the endpoint's status. */
export async function sendStripeEvent(url: string, secret: string, type: string, object: unknown): Promise<number> {
  const payload = JSON.stringify({
    id: `evt_${randomBytes(12).toString("hex")}`,
    object: "event",
    api_version: "2024-04-10",
    created: Math.floor(Date.now() / 1000),
    type,
    data: { object },
    livemode: false,
    pending_webhooks: 1,
  })
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", "stripe-signature": stripeSignature(payload, secret) },
    body: payload,
  })
  await response.arrayBuffer()
  return response.status
}
