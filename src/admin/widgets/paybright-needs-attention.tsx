import { defineWidgetConfig } from "@medusajs/admin-sdk"
import { Badge, Container, Heading, Text } from "@medusajs/ui"
import { Link } from "react-router-dom"
import type { PayBrightAttentionItem } from "../../types/admin"
import { QueryState } from "../components/query-state"
import { RecordActions } from "../components/record-actions"
import { useNeedsAttention } from "../hooks/paybright"
import { date, money } from "../lib/format"

const DAY = 24 * 60 * 60 * 1000
const LABELS: Record<PayBrightAttentionItem["kind"], { text: string; color: "red" | "orange" | "grey" }> = {
  settings_unreadable: { text: "PayBright stopped", color: "red" },
  in_doubt: { text: "in doubt", color: "red" },
  refused_capture: { text: "capture refused", color: "red" },
  unreleased_contract: { text: "loan not released", color: "red" },
  orphaned_approval: { text: "approved, no order", color: "orange" },
  expiring_authorization: { text: "close to expiry", color: "red" },
  open_authorization: { text: "awaiting capture", color: "grey" },
}

/**
 * Above the order list: what a merchant should act on, most urgent first, each linking to its
 * order (or naming its contract when there is none), then the authorizations awaiting capture with
 * the day PayBright cancels them. Hidden when there is nothing.
 */
const PayBrightNeedsAttentionWidget = () => {
  const { data: items, isLoading, isError, error, refetch } = useNeedsAttention()
  if (isLoading || isError) {
    return (
      <Container id="paybright-needs-attention" className="p-0">
        <QueryState
          isLoading={isLoading}
          isError={isError}
          error={error}
          retry={refetch}
          what="PayBright: needs attention"
          lines={2}
        />
      </Container>
    )
  }
  if (!items?.length) return null
  const urgent = items.filter((item) => item.kind !== "open_authorization").length

  return (
    <Container id="paybright-needs-attention" className="divide-y p-0">
      <div className="px-6 py-4">
        <Heading level="h2">PayBright: needs attention</Heading>
        <Text size="small" className="text-ui-fg-subtle">
          {urgent > 0
            ? `${urgent} to act on. PayBright cancels what is not captured by the date shown.`
            : "Nothing urgent. Orders below are captured when they ship; PayBright cancels what is not captured by the date shown."}
        </Text>
      </div>
      {items.map((item, index) => (
        <div
          key={`${item.kind}-${item.order_id ?? item.contract}-${index}`}
          className="flex items-center justify-between gap-x-4 px-6 py-3"
          data-kind={item.kind}
        >
          <div className="flex flex-col">
            <Text size="small" weight="plus">
              {item.kind === "settings_unreadable" ? (
                <Link to="/settings/paybright">PayBright settings</Link>
              ) : (
                <>
                  {item.order_id ? (
                    <Link to={`/orders/${item.order_id}`}>
                      Order {item.order_display_id ? `#${item.order_display_id}` : item.order_id}
                    </Link>
                  ) : (
                    `Contract ${item.contract}`
                  )}
                  {` · ${money(item.amount, item.currency_code)}`}
                </>
              )}
            </Text>
            <Text size="xsmall" className="text-ui-fg-subtle">
              {item.message}
            </Text>
            {/* Entries with an order are acted on from its panel; the others only here. */}
            {!item.order_id && item.kind !== "settings_unreadable" && (
              <RecordActions
                target={{
                  recordId: item.record_id,
                  approvalId: item.approval_id,
                  movement: item.movement,
                  inDoubt: item.kind === "in_doubt",
                  amount: item.amount,
                  currency: item.currency_code,
                  contract: item.contract,
                  actions: item.actions,
                }}
              />
            )}
          </div>
          <Badge size="2xsmall" color={LABELS[item.kind].color}>
            {item.expires_at
              ? `${LABELS[item.kind].text} · expires ${date(item.expires_at)} (${daysLeft(item.expires_at)})`
              : LABELS[item.kind].text}
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

export default PayBrightNeedsAttentionWidget
