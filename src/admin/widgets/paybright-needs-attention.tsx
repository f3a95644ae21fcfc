import { defineWidgetConfig } from "@medusajs/admin-sdk"
import { Badge, clx, Container, Heading, Text } from "@medusajs/ui"
import { Link, useNavigate } from "react-router-dom"
import type { PayBrightAttentionAction, PayBrightAttentionItem } from "../../types/admin"
import { QueryState } from "../components/query-state"
import { RecordActions } from "../components/record-actions"
import { useNeedsAttention } from "../hooks/paybright"
import { date, money } from "../lib/format"

const DAY = 24 * 60 * 60 * 1000
/** The actions safe to take from the list: asking PayBright again for what it refused. */
const RETRIES = new Set<PayBrightAttentionAction>(["retry_capture", "retry_release"])
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
 * On the orders page: what a merchant should act on, most urgent first, each opening its order
 * (or naming its contract when there is none), then the authorizations awaiting capture with the
 * day PayBright cancels them. Hidden when there is nothing. Medusa draws it under the table unless
 * the merchant's layout of the page moves it up (docs/admin.md).
 */
const PayBrightNeedsAttentionWidget = () => {
  const navigate = useNavigate()
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
          className={clx(
            "flex items-center justify-between gap-x-4 px-6 py-3",
            item.order_id && "hover:bg-ui-bg-base-hover cursor-pointer"
          )}
          data-kind={item.kind}
          // A row with an order opens it, as the rows of Medusa's order table do.
          onClick={item.order_id ? () => navigate(`/orders/${item.order_id}`) : undefined}
        >
          <div className="flex flex-col">
            <Text size="small" weight="plus">
              {item.kind === "settings_unreadable" ? (
                <Link to="/settings/paybright">PayBright settings</Link>
              ) : (
                <>
                  {item.order_id ? (
                    <Link
                      to={`/orders/${item.order_id}`}
                      className="text-ui-fg-interactive hover:text-ui-fg-interactive-hover"
                      onClick={(event) => event.stopPropagation()}
                    >
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
            {/* From the list, a retry; what needs a look at the PayBright portal first (resolving a
                record, marking an approval handled) is done from the order's panel, or here when
                there is no order. */}
            {item.kind !== "settings_unreadable" && (
              <div onClick={(event) => event.stopPropagation()}>
                <RecordActions
                  target={{
                    recordId: item.record_id,
                    approvalId: item.approval_id,
                    movement: item.movement,
                    inDoubt: item.kind === "in_doubt",
                    amount: item.amount,
                    currency: item.currency_code,
                    contract: item.contract,
                    actions: item.order_id ? item.actions.filter((action) => RETRIES.has(action)) : item.actions,
                  }}
                />
              </div>
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

// A stable id (widget:paybright-needs-attention), so that a merchant's layout of the orders page
// (Customize: this widget above the table) keeps finding it.
export const config = defineWidgetConfig({ zone: "order.list.before", id: "paybright-needs-attention" })

export default PayBrightNeedsAttentionWidget
