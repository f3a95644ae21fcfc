import { defineWidgetConfig } from "@medusajs/admin-sdk"
import type { AdminOrder, DetailWidgetProps } from "@medusajs/framework/types"
import { Badge, Button, Container, Heading, StatusBadge, Text } from "@medusajs/ui"
import { useState } from "react"
import type { PayBrightOrderPanel, PayBrightPaymentStatus, PayBrightRevealedCard } from "../../lib/admin-types"
import { QueryState } from "../components/query-state"
import { RecordActions, useConfirmedAction } from "../components/record-actions"
import { useOrderPanel, usePanelActions } from "../hooks/paybright"
import { useAdminText } from "../lib/use-admin-text"
import { useSaid } from "../lib/use-said"
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
  // The loan lives on: the new payment is a moment away.
  carrying: "orange",
  voided: "red",
  void_failed: "red",
}
/** Statuses Medusa's order page names too: the panel uses Medusa's own words for them. */
const MEDUSA_STATUS_WORDS: Partial<Record<PayBrightPaymentStatus, string>> = {
  partially_captured: "orders.payment.status.partiallyCaptured",
  captured: "orders.payment.status.captured",
  partially_refunded: "orders.payment.status.partiallyRefunded",
  refunded: "orders.payment.status.refunded",
  cancelled: "orders.payment.status.canceled",
}
const RECORD_COLORS = { done: "green", refused: "red", in_doubt: "orange", pending: "grey" } as const
/** Medusa's "Capture payment" takes it all now; the sentence then says what happens otherwise, by the order's own capture mode. */
const CAPTURE_IN_MEDUSA: Record<PayBrightOrderPanel["capture_on"], string> = {
  shipment: "paybright.panel.captureInMedusa",
  fulfillment: "paybright.panel.captureInMedusaAtFulfillment",
  manual: "paybright.panel.captureInMedusaManual",
}

/** The payment's status in the merchant's words, with how soon PayBright cancels the rest once that is close. */
function useStatusText() {
  const { t } = useAdminText()
  return (panel: Pick<PayBrightOrderPanel, "status" | "expiring" | "expires_in_days">) => {
    const words = t(MEDUSA_STATUS_WORDS[panel.status] ?? `paybright.status.${panel.status}`)
    if (!panel.expiring || panel.expires_in_days === null) return words
    const expiry =
      panel.expires_in_days <= 0
        ? t("paybright.status.expired")
        : t("paybright.status.expiringIn", { count: panel.expires_in_days })
    return `${words} · ${expiry}`
  }
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
  const { t } = useAdminText()
  const statusText = useStatusText()
  const { data, isLoading, isError, error, refetch } = useOrderPanel(orderId)
  const panel = data?.panel
  /** The panel as the server has it now, read again before an action. */
  const fresh = async () => (await refetch()).data?.panel ?? null
  return (
    // Which order it shows: a page the admin's router moves to another order draws it anew.
    <Container id="paybright-order-panel" data-order-id={orderId} className="divide-y p-0">
      <div className="flex items-center justify-between px-6 py-4">
        <Heading level="h2">{t("paybright.panel.title")}</Heading>
        {panel && (
          <StatusBadge id="paybright-status" color={STATUS_COLORS[panel.status]}>
            {statusText(panel)}
          </StatusBadge>
        )}
      </div>
      <QueryState
        isLoading={isLoading}
        isError={isError}
        error={error}
        retry={refetch}
        what={t("paybright.panel.what")}
      />
      {panel && <PanelBody panel={panel} fresh={fresh} />}
    </Container>
  )
}

function PanelBody({ panel, fresh }: { panel: PayBrightOrderPanel; fresh: () => Promise<PayBrightOrderPanel | null> }) {
  const actions = usePanelActions()
  const [card, setCard] = useState<PayBrightRevealedCard>()
  const { t, money, date, dateTime } = useAdminText()
  const statusText = useStatusText()
  const say = useSaid()
  // Who acted, in the merchant's words: PayBright for the lender, Medusa's own word for an admin,
  // and a user as the log names them.
  const actorText = (actor: string) =>
    actor === "lender" ? t("paybright.actor.lender") : actor === "admin" ? t("general.admin") : actor
  const currency = panel.currency_code
  const remaining = money(panel.remaining, currency)
  // Medusa's own words for its button and card, in the admin's language.
  const medusa = { capture: t("orders.payment.capture"), payments: t("orders.payment.title") }

  const refusedForMedusa = panel.records.some((record) => record.actions.includes("capture_in_medusa"))

  const confirmThen = useConfirmedAction()
  // The page may be older than the order (a capture at shipment landed since): the action is
  // offered again only if the server still offers it for the same amount.
  const changedSince = (action: "capture_remainder" | "reveal_card") => async () => {
    const now = await fresh()
    if (now && now.actions[action] && now.remaining === panel.remaining) return null
    return now
      ? t("paybright.panel.changed", { status: statusText(now), captured: money(now.captured, currency) })
      : t("paybright.panel.paymentGone")
  }

  // Medusa's own capture prompt, for the part its button cannot capture.
  const remainderLabel = t("paybright.panel.captureRemainder", { amount: remaining })
  const captureRemainder = () =>
    confirmThen(
      remainderLabel,
      t("orders.payment.capturePayment", { amount: remaining }),
      t("actions.confirm"),
      async () => {
        await actions.captureRemainder.mutateAsync({ paymentId: panel.payment_id, amount: panel.remaining })
        return { done: t("paybright.panel.captureDone", { amount: remaining }) }
      },
      changedSince("capture_remainder")
    )
  const reveal = () =>
    confirmThen(
      t("paybright.panel.revealTitle"),
      t("paybright.panel.revealDescription", { amount: remaining }),
      t("paybright.panel.revealConfirm"),
      async () => {
        setCard((await actions.revealCard.mutateAsync(panel.payment_id)).card)
        return { done: t("paybright.panel.revealDone") }
      },
      changedSince("reveal_card")
    )

  return (
    <>
      <div className="flex flex-col gap-y-1 px-6 py-4">
        <Row label={t("paybright.panel.contract")} value={panel.contract ?? "—"} />
        <Row
          label={t("paybright.panel.captureMode")}
          value={
            panel.capture_mode === "virtual_card"
              ? panel.card_processor
                ? t("paybright.panel.virtualCardVia", { processor: panel.card_processor })
                : t("paybright.panel.virtualCard")
              : t("paybright.panel.inStore")
          }
        />
        {panel.card && (
          <Row
            label={t("paybright.panel.card")}
            value={t("paybright.panel.cardLine", panel.card)}
            id="paybright-card"
          />
        )}
      </div>
      <div id="paybright-amounts" className="flex flex-col gap-y-1 px-6 py-4">
        <Row label={t("paybright.panel.authorized")} value={money(panel.authorized, currency)} />
        <Row label={t("paybright.panel.captured")} value={money(panel.captured, currency)} />
        <Row label={t("paybright.panel.refunded")} value={money(panel.refunded, currency)} />
        {panel.status === "voided" || panel.status === "cancelled" ? (
          // Nothing remains to capture on a canceled payment: what was left is no longer the merchant's.
          <Row
            label={t(panel.status === "voided" ? "paybright.panel.voided" : "paybright.panel.notCaptured")}
            value={remaining}
          />
        ) : (
          <Row label={t("paybright.panel.remaining")} value={remaining} strong />
        )}
        {panel.expires_at && (
          <Text size="xsmall" className="text-ui-fg-subtle">
            {t("paybright.panel.expiresOn", { date: date(panel.expires_at) })}
          </Text>
        )}
        {panel.carry_expected && (
          <Text id="paybright-carry-expected" size="xsmall" className="text-ui-fg-subtle">
            {panel.carry_expected.overdue
              ? t("paybright.panel.carryOverdue", {
                  date: dateTime(panel.carry_expected.since),
                  contract: panel.contract ?? "",
                })
              : t("paybright.panel.carrying", { contract: panel.contract ?? "" })}
          </Text>
        )}
        {panel.capture_expected && (
          <Text id="paybright-capture-expected" size="xsmall" className="text-ui-fg-subtle">
            {panel.capture_expected.overdue
              ? t("paybright.panel.captureOverdue", { date: dateTime(panel.capture_expected.since) })
              : t("paybright.panel.captureRunning")}
          </Text>
        )}
        {/* After a refusal Medusa's button takes, the refused record says so itself, beside its reason. */}
        {panel.actions.capture_in_medusa && !refusedForMedusa && (
          <Text id="paybright-capture-hint" size="xsmall" className="text-ui-fg-subtle">
            {t(CAPTURE_IN_MEDUSA[panel.capture_on], { ...medusa, amount: remaining })}
          </Text>
        )}
        {panel.actions.capture_remainder && (
          <Text id="paybright-capture-hint" size="xsmall" className="text-ui-fg-subtle">
            {t("paybright.panel.captureRemainderHere", {
              ...medusa,
              authorized: money(panel.authorized, currency),
              amount: remaining,
            })}
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
              {remainderLabel}
            </Button>
          )}
          {panel.actions.reveal_card && (
            <Button size="small" variant="secondary" isLoading={actions.revealCard.isPending} onClick={reveal}>
              {t("paybright.panel.revealCard")}
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
            {t("paybright.panel.revealedNote", { name: card.cardholder_name })}
          </Text>
          <Button size="small" variant="transparent" onClick={() => setCard(undefined)}>
            {t("paybright.panel.hideCard")}
          </Button>
        </div>
      )}
      <div id="paybright-records" className="flex flex-col gap-y-3 px-6 py-4">
        <Text size="small" weight="plus">
          {t("paybright.panel.records")}
        </Text>
        {panel.records.length === 0 && (
          <Text size="small" className="text-ui-fg-subtle">
            {t("paybright.panel.noRecords")}
          </Text>
        )}
        {panel.records.map((record) => (
          <div key={record.id} className="flex flex-col gap-y-1">
            <div className="flex items-center justify-between gap-x-2">
              <Text size="small">
                {t("paybright.record.line", {
                  movement: t(`paybright.record.${record.kind}`),
                  amount: money(record.amount, currency),
                  trigger: t(`paybright.record.trigger.${record.trigger}`),
                })}
              </Text>
              {/* On one line: a pill's height fits one line of text. */}
              <Badge size="2xsmall" color={RECORD_COLORS[record.state]} className="shrink-0 whitespace-nowrap">
                {t(`paybright.record.state.${record.state}`)}
              </Badge>
            </div>
            {record.message && (
              <Text size="xsmall" className={record.state === "done" ? "text-ui-fg-subtle" : "text-ui-fg-error"}>
                {say(record.said, record.message)}
              </Text>
            )}
            <RecordActions
              onOrderPage
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
          {t("paybright.panel.timeline")}
        </Text>
        {panel.timeline.map((entry) => (
          <div key={entry.id} className="flex flex-col">
            <Text size="small">{say(entry.said, entry.message)}</Text>
            <Text size="xsmall" className="text-ui-fg-subtle">
              {dateTime(entry.at)}
              {entry.actor !== "system" ? ` · ${actorText(entry.actor)}` : ""}
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
