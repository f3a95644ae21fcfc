import { defineWidgetConfig } from "@medusajs/admin-sdk"
import { Badge, Container, Heading, Text } from "@medusajs/ui"
import { useQuery } from "@tanstack/react-query"
import { Link } from "react-router-dom"
import { sdk } from "../lib/sdk"

type OpenAuthorization = {
  payment_id: string
  order_id?: string
  order_display_id?: number
  uncaptured: string
  currency_code: string
  expires_at: string
  age_days: number
  expiring: boolean
}

const DAY = 24 * 60 * 60 * 1000

/**
 * Above the order list: PayBright orders whose authorization still holds an uncaptured amount,
 * with the date PayBright cancels it, those close to it first flagged. Hidden when there are none.
 */
const PayBrightOpenAuthorizationsWidget = () => {
  const { data } = useQuery({
    queryKey: ["paybright", "authorizations"],
    queryFn: () => sdk.client.fetch<{ authorizations: OpenAuthorization[] }>("/admin/paybright/authorizations"),
  })
  const authorizations = data?.authorizations ?? []

  if (authorizations.length === 0) return null
  const expiring = authorizations.filter((authorization) => authorization.expiring).length

  return (
    <Container id="paybright-open-authorizations" className="divide-y p-0">
      <div className="px-6 py-4">
        <Heading level="h2">PayBright: awaiting capture</Heading>
        <Text size="small" className="text-ui-fg-subtle">
          {expiring > 0
            ? `${expiring} close to expiry: ship and capture them, or cancel the order. PayBright cancels what is not captured by the date shown.`
            : "Captured when they ship. PayBright cancels what is not captured by the date shown."}
        </Text>
      </div>
      {authorizations.map((authorization) => (
        <div key={authorization.payment_id} className="flex items-center justify-between px-6 py-3">
          <Text size="small" weight="plus">
            {authorization.order_id ? (
              <Link to={`/orders/${authorization.order_id}`}>Order #{authorization.order_display_id}</Link>
            ) : (
              `Payment ${authorization.payment_id}`
            )}
            {` · ${authorization.uncaptured} ${authorization.currency_code.toUpperCase()}`}
          </Text>
          <Badge size="2xsmall" color={authorization.expiring ? "red" : "grey"}>
            expires {new Date(authorization.expires_at).toLocaleDateString()} ({daysLeft(authorization.expires_at)})
          </Badge>
        </div>
      ))}
    </Container>
  )
}

function daysLeft(expiresAt: string) {
  const days = Math.ceil((new Date(expiresAt).getTime() - Date.now()) / DAY)
  return days <= 0 ? "expired" : days === 1 ? "1 day left" : `${days} days left`
}

export const config = defineWidgetConfig({ zone: "order.list.before" })

export default PayBrightOpenAuthorizationsWidget
