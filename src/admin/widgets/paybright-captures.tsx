import { defineWidgetConfig } from "@medusajs/admin-sdk"
import type { DetailWidgetProps, AdminOrder } from "@medusajs/framework/types"
import { Badge, Button, Container, Heading, Text, toast } from "@medusajs/ui"
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { sdk } from "../lib/sdk"

type CaptureRecord = {
  id: string
  trigger: "shipment" | "fulfillment" | "admin" | "cancellation" | "retry"
  fulfillment_id: string
  amount: string
  currency_code: string
  state: "pending" | "done" | "refused" | "in_doubt"
  message: string | null
  created_at: string
}

const colors = { done: "green", refused: "red", in_doubt: "purple", pending: "orange" } as const

/** The captures PayBright made at shipment for this order, with a retry for the failed ones. */
const PayBrightCapturesWidget = ({ data: order }: DetailWidgetProps<AdminOrder>) => {
  const queryClient = useQueryClient()
  const queryKey = ["paybright", "captures", order.id]
  const { data } = useQuery({
    queryKey,
    queryFn: () => sdk.client.fetch<{ captures: CaptureRecord[] }>(`/admin/paybright/orders/${order.id}/captures`),
  })
  const captures = data?.captures
  const retry = useMutation({
    mutationFn: (id: string) => sdk.client.fetch(`/admin/paybright/captures/${id}/retry`, { method: "POST" }),
    onSuccess: () => toast.success("Captured at PayBright"),
    onError: (error: Error) => toast.error(error.message || "The capture failed again"),
    onSettled: () => queryClient.invalidateQueries({ queryKey }),
  })

  const isPayBright = order.payment_collections?.some((collection) =>
    collection.payments?.some((payment) => payment.provider_id?.startsWith("pp_paybright_"))
  )
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
              {twoDecimals(capture.amount)} {capture.currency_code.toUpperCase()} at {capture.trigger}
            </Text>
            <Badge size="2xsmall" color={colors[capture.state]}>
              {capture.state}
            </Badge>
          </div>
          {capture.message && (
            <Text size="small" className="text-ui-fg-error">
              {capture.message}
            </Text>
          )}
          {capture.state === "refused" && (
            <Button
              size="small"
              variant="secondary"
              isLoading={retry.isPending && retry.variables === capture.id}
              onClick={() => retry.mutate(capture.id)}
            >
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
