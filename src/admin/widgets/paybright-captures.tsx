import { defineWidgetConfig } from "@medusajs/admin-sdk"
import type { DetailWidgetProps, AdminOrder } from "@medusajs/framework/types"
import { Badge, Button, Container, Heading, Text, toast } from "@medusajs/ui"
import { useCallback, useEffect, useState } from "react"

type CaptureRecord = {
  id: string
  trigger: "shipment" | "fulfillment"
  fulfillment_id: string
  raw_amount: { value: string }
  currency_code: string
  status: "pending" | "captured" | "failed"
  attempts: number
  last_error: string | null
  updated_at: string
}

const colors = { captured: "green", failed: "red", pending: "orange" } as const

/** The captures PayBright made at shipment for this order, with a retry for the failed ones. */
const PayBrightCapturesWidget = ({ data: order }: DetailWidgetProps<AdminOrder>) => {
  const [captures, setCaptures] = useState<CaptureRecord[] | undefined>()
  const [retrying, setRetrying] = useState<string>()

  const load = useCallback(async () => {
    const response = await fetch(`/admin/paybright/orders/${order.id}/captures`, { credentials: "include" })
    if (response.ok) setCaptures((await response.json()).captures)
  }, [order.id])

  useEffect(() => {
    void load()
  }, [load])

  const retry = async (id: string) => {
    setRetrying(id)
    const response = await fetch(`/admin/paybright/captures/${id}/retry`, { method: "POST", credentials: "include" })
    const body = await response.json().catch(() => ({}))
    setRetrying(undefined)
    if (response.ok) toast.success("Captured at PayBright")
    else toast.error(body.message ?? "The capture failed again")
    await load()
  }

  const isPayBright = order.payment_collections?.some((collection) => collection.payments?.some((payment) => payment.provider_id?.startsWith("pp_paybright_")))
  if (!isPayBright) return null

  return (
    <Container id="paybright-captures" className="divide-y p-0">
      <div className="px-6 py-4">
        <Heading level="h2">PayBright captures</Heading>
        <Text size="small" className="text-ui-fg-subtle">
          Captured automatically when a parcel ships.
        </Text>
      </div>
      {captures?.length === 0 && (
        <Text size="small" className="px-6 py-4 text-ui-fg-subtle">
          Nothing captured at shipment yet.
        </Text>
      )}
      {captures?.map((capture) => (
        <div key={capture.id} className="flex flex-col gap-y-2 px-6 py-4">
          <div className="flex items-center justify-between">
            <Text size="small" weight="plus">
              {twoDecimals(capture.raw_amount.value)} {capture.currency_code.toUpperCase()} at {capture.trigger}
            </Text>
            <Badge size="2xsmall" color={colors[capture.status]}>
              {capture.status}
            </Badge>
          </div>
          {capture.last_error && (
            <Text size="small" className="text-ui-fg-error">
              {capture.last_error}
            </Text>
          )}
          {capture.status === "failed" && (
            <Button size="small" variant="secondary" isLoading={retrying === capture.id} onClick={() => retry(capture.id)}>
              Retry capture
            </Button>
          )}
        </div>
      ))}
    </Container>
  )
}

/** A decimal string with two places, without passing through a float. */
function twoDecimals(value: string) {
  const [whole, fraction = ""] = value.split(".")
  return `${whole}.${fraction.padEnd(2, "0").slice(0, 2)}`
}

export const config = defineWidgetConfig({ zone: "order.details.side.after" })

export default PayBrightCapturesWidget
