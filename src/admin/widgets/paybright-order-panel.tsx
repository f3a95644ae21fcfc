import { defineWidgetConfig } from "@medusajs/admin-sdk"
import type { AdminOrder, DetailWidgetProps } from "@medusajs/framework/types"
import { Badge, Button, Container, Heading, StatusBadge, Text } from "@medusajs/ui"
import { useState } from "react"
import type {
  PayBrightMoneyRecord,
  PayBrightOrderPanel,
  PayBrightPaymentStatus,
  PayBrightRevealedCard,
} from "../../types/admin"
import { QueryState } from "../components/query-state"
import { RecordActions, useConfirmedAction } from "../components/record-actions"
import { useOrderPanel, usePanelActions } from "../hooks/paybright"
import { date, dateTime, money } from "../lib/format"
import { isPayBright } from "../../storefront/provider"

// Medusa's colours for the same payment statuses (its order page), and red for what needs a person.
const STATUS_COLORS: Record<PayBrightPaymentStatus, "green" | "orange" | "red" | "blue" | "grey"> = {
  awaiting_capture: "orange",
  partially_captured: "orange",
  captured: "green",
  partially_refunded: "orange",
  refunded: "red",
  capture_failed: "red",
  in_doubt: "red",
  cancelled: "red",
  released: "red",
  release_failed: "red",
}
const RECORD_COLORS = { done: "green", refused: "red", in_doubt: "orange", pending: "grey" } as const
const RECORD_WORDS = { done: "done", refused: "refused", in_doubt: "in doubt", pending: "in progress" } as const
const MOVEMENT_WORDS = { capture: "Capture", refund: "Refund", void: "Release of the loan" } as const
const TRIGGER_WORDS: Record<PayBrightMoneyRecord["trigger"], string> = {
  shipment: "at shipment",
  fulfillment: "at fulfillment",
  admin: "from the admin",
  order_canceled: "when the order was cancelled",
  orphan: "of an orphaned approval",
  retry: "on retry",
}

/**
 * The order page's PayBright panel: where the contract stands, what was captured and refunded,
 * the timeline, and the actions a merchant takes on it, each behind a confirmation.
 */
const PayBrightOrderPanelWidget = ({ data: order }: DetailWidgetProps<AdminOrder>) => {
  const paidWithPayBright = !!order.payment_collections?.some((collection) =>
    collection.payments?.some((payment) => isPayBright(payment.provider_id))
  )
  if (!paidWithPayBright) return null
  return <OrderPanel orderId={order.id} />
}

function OrderPanel({ orderId }: { orderId: string }) {
  const { data, isLoading, isError, error, refetch } = useOrderPanel(orderId)
  const panel = data?.panel
  /** The panel as the server has it now, read again before an action. */
  const fresh = async () => (await refetch()).data?.panel ?? null
  return (
    <Container id="paybright-order-panel" className="divide-y p-0">
      <div className="flex items-center justify-between px-6 py-4">
        <Heading level="h2">PayBright</Heading>
        {panel && (
          <StatusBadge id="paybright-status" color={STATUS_COLORS[panel.status]}>
            {panel.status_text}
          </StatusBadge>
        )}
      </div>
      <QueryState isLoading={isLoading} isError={isError} error={error} retry={refetch} what="The PayBright panel" />
      {panel && <PanelBody panel={panel} fresh={fresh} />}
    </Container>
  )
}

function PanelBody({ panel, fresh }: { panel: PayBrightOrderPanel; fresh: () => Promise<PayBrightOrderPanel | null> }) {
  const actions = usePanelActions()
  const [card, setCard] = useState<PayBrightRevealedCard>()
  const currency = panel.currency_code

  const confirmThen = useConfirmedAction()
  // The page may be older than the order (a capture at shipment landed since): the action is
  // offered again only if the server still offers it for the same amount.
  const changedSince = (action: "capture_remainder" | "reveal_card") => async () => {
    const now = await fresh()
    if (now && now.actions[action] && now.remaining === panel.remaining) return null
    return `The order changed since this page was drawn (${now ? `${now.status_text}, ${money(now.captured, currency)} captured` : "its payment is gone"}); nothing was done.`
  }

  const captureRemainder = () =>
    confirmThen(
      "Capture the remainder?",
      `PayBright will capture ${money(panel.remaining, currency)} on contract ${panel.contract ?? ""}.`,
      `Capture ${money(panel.remaining, currency)}`,
      async () => {
        await actions.captureRemainder.mutateAsync({ paymentId: panel.payment_id, amount: panel.remaining })
        return { done: `PayBright captured ${money(panel.remaining, currency)}.` }
      },
      changedSince("capture_remainder")
    )
  const reveal = () =>
    confirmThen(
      "Reveal the virtual card?",
      `To charge ${money(panel.remaining, currency)} on the store's terminal. The reveal is recorded with your name.`,
      "Reveal the card",
      async () => {
        setCard((await actions.revealCard.mutateAsync(panel.payment_id)).card)
        return { done: "The card is shown below." }
      },
      changedSince("reveal_card")
    )

  return (
    <>
      <div className="flex flex-col gap-y-1 px-6 py-4">
        <Row label="Contract" value={panel.contract ?? "—"} />
        <Row
          label="Capture mode"
          value={
            panel.capture_mode === "virtual_card"
              ? `Virtual card${panel.card_processor ? ` (${panel.card_processor})` : ""}`
              : "In-store capture"
          }
        />
        {panel.card && (
          <Row
            label="Card"
            value={`${panel.card.brand} •••• ${panel.card.last4} · expires ${panel.card.expiry}`}
            id="paybright-card"
          />
        )}
      </div>
      <div id="paybright-amounts" className="flex flex-col gap-y-1 px-6 py-4">
        <Row label="Authorized" value={money(panel.authorized, currency)} />
        <Row label="Captured" value={money(panel.captured, currency)} />
        <Row label="Refunded" value={money(panel.refunded, currency)} />
        {panel.status === "released" || panel.status === "cancelled" ? (
          // Nothing remains to capture on a canceled payment: what was left is no longer the merchant's.
          <Row
            label={panel.status === "released" ? "Released" : "Not captured"}
            value={money(panel.remaining, currency)}
          />
        ) : (
          <Row label="Remaining" value={money(panel.remaining, currency)} strong />
        )}
        {panel.expires_at && (
          <Text size="xsmall" className="text-ui-fg-subtle">
            PayBright cancels what is not captured on {date(panel.expires_at)}.
          </Text>
        )}
        {panel.capture_expected && (
          <Text id="paybright-capture-expected" size="xsmall" className="text-ui-fg-subtle">
            {panel.capture_expected.overdue
              ? `A parcel went out on ${dateTime(panel.capture_expected.since)} and PayBright's capture of it has not landed yet: look at the timeline below, or in the PayBright portal.`
              : "A parcel went out: PayBright is capturing it now."}
          </Text>
        )}
      </div>
      {(panel.actions.capture_remainder || panel.actions.reveal_card) && (
        <div className="flex flex-wrap gap-2 px-6 py-4">
          {panel.actions.capture_remainder && (
            <Button
              size="small"
              variant="secondary"
              isLoading={actions.captureRemainder.isPending}
              onClick={captureRemainder}
            >
              Capture {money(panel.remaining, currency)}
            </Button>
          )}
          {panel.actions.reveal_card && (
            <Button size="small" variant="secondary" isLoading={actions.revealCard.isPending} onClick={reveal}>
              Reveal card
            </Button>
          )}
        </div>
      )}
      {card && (
        <div id="paybright-revealed-card" className="flex flex-col gap-y-1 px-6 py-4">
          <Text size="small" weight="plus">
            {card.pan} · {card.expiry} · CVV {card.cvv}
          </Text>
          <Text size="xsmall" className="text-ui-fg-subtle">
            {card.cardholder_name}. Charge it now; it is not shown again after you leave.
          </Text>
          <Button size="small" variant="transparent" onClick={() => setCard(undefined)}>
            Hide the card
          </Button>
        </div>
      )}
      <div id="paybright-records" className="flex flex-col gap-y-3 px-6 py-4">
        <Text size="small" weight="plus">
          Captures, refunds and releases
        </Text>
        {panel.records.length === 0 && (
          <Text size="small" className="text-ui-fg-subtle">
            Nothing captured yet.
          </Text>
        )}
        {panel.records.map((record) => (
          <div key={record.id} className="flex flex-col gap-y-1">
            <div className="flex items-center justify-between gap-x-2">
              <Text size="small">
                {MOVEMENT_WORDS[record.kind]} {money(record.amount, currency)} {TRIGGER_WORDS[record.trigger]}
              </Text>
              <Badge size="2xsmall" color={RECORD_COLORS[record.state]}>
                {RECORD_WORDS[record.state]}
              </Badge>
            </div>
            {record.message && (
              <Text size="xsmall" className={record.state === "done" ? "text-ui-fg-subtle" : "text-ui-fg-error"}>
                {record.message}
              </Text>
            )}
            <RecordActions
              target={{
                recordId: record.id,
                approvalId: null,
                movement: record.kind,
                inDoubt: record.state === "in_doubt",
                amount: record.amount,
                currency,
                contract: panel.contract,
                actions: record.actions,
              }}
            />
          </div>
        ))}
      </div>
      <div id="paybright-timeline" className="flex flex-col gap-y-2 px-6 py-4">
        <Text size="small" weight="plus">
          Timeline
        </Text>
        {panel.timeline.map((entry) => (
          <div key={entry.id} className="flex flex-col">
            <Text size="small">{entry.message}</Text>
            <Text size="xsmall" className="text-ui-fg-subtle">
              {dateTime(entry.at)}
              {entry.actor !== "system" ? ` · ${entry.actor}` : ""}
            </Text>
          </div>
        ))}
      </div>
    </>
  )
}

function Row({ label, value, strong, id }: { label: string; value: string; strong?: boolean; id?: string }) {
  return (
    <div className="flex items-center justify-between" id={id}>
      <Text size="small" className="text-ui-fg-subtle">
        {label}
      </Text>
      <Text size="small" weight={strong ? "plus" : "regular"}>
        {value}
      </Text>
    </div>
  )
}

export const config = defineWidgetConfig({ zone: "order.details.side.after" })

export default PayBrightOrderPanelWidget
