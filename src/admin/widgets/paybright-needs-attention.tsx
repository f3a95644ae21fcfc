import { defineWidgetConfig } from "@medusajs/admin-sdk"
import { Badge, clx, Container, Heading, Text } from "@medusajs/ui"
import { Link, useNavigate } from "react-router-dom"
import type { CaptureOn, PayBrightAttentionAction, PayBrightAttentionItem } from "../../lib/admin-types"
import { QueryState } from "../components/query-state"
import { RecordActions } from "../components/record-actions"
import { useNeedsAttention } from "../hooks/paybright"
import { useAdminText } from "../lib/use-admin-text"
import { useSaid } from "../lib/use-said"

const DAY = 24 * 60 * 60 * 1000
/** An authorization awaiting capture, in words that say what its order's own capture mode does. */
const OPEN: Record<CaptureOn, string> = {
  shipment: "paybright.attention.open",
  fulfillment: "paybright.attention.openAtFulfillment",
  manual: "paybright.attention.openManual",
}
/**
 * The actions safe to take from the list: asking PayBright again for what it refused, or, where
 * Medusa's own "Capture payment" is the way to capture it again, saying so.
 */
const FROM_THE_LIST = new Set<PayBrightAttentionAction>(["retry_capture", "capture_in_medusa", "retry_void"])
const COLORS: Record<PayBrightAttentionItem["kind"], "red" | "orange" | "grey"> = {
  settings_unreadable: "red",
  in_doubt: "red",
  refused_capture: "red",
  unvoided_contract: "red",
  orphaned_approval: "orange",
  uncovered_balance: "orange",
  expiring_authorization: "red",
  open_authorization: "grey",
}

/**
 * On the orders page: what a merchant should act on, most urgent first, each opening its order
 * (or naming its contract when there is none), then the authorizations awaiting capture with the
 * day PayBright cancels them. Hidden when there is nothing. Medusa draws it under the table unless
 * the merchant's layout of the page moves it up (docs/admin.md).
 */
const PayBrightNeedsAttentionWidget = () => {
  const navigate = useNavigate()
  const { t, money, date } = useAdminText()
  const say = useSaid()
  const { data: items, isLoading, isError, error, refetch } = useNeedsAttention()
  if (isLoading || isError) {
    return (
      <Container id="paybright-needs-attention" className="p-0">
        <QueryState
          isLoading={isLoading}
          isError={isError}
          error={error}
          retry={refetch}
          what={t("paybright.attention.title")}
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
        <Heading level="h2">{t("paybright.attention.title")}</Heading>
        <Text size="small" className="text-ui-fg-subtle">
          {urgent > 0 ? t("paybright.attention.urgent", { count: urgent }) : t("paybright.attention.nothingUrgent")}
        </Text>
      </div>
      {items.map((item, index) => {
        const label = t(`paybright.attention.kind.${item.kind}`)
        const amount = money(item.amount, item.currency_code)
        return (
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
            <div className="flex min-w-0 flex-col">
              <Text size="small" weight="plus">
                {item.kind === "settings_unreadable" ? (
                  <Link to="/settings/paybright">{t("paybright.attention.settings")}</Link>
                ) : (
                  <>
                    {item.order_id ? (
                      <Link
                        to={`/orders/${item.order_id}`}
                        className="text-ui-fg-interactive hover:text-ui-fg-interactive-hover"
                        onClick={(event) => event.stopPropagation()}
                      >
                        {t("paybright.attention.order", { id: item.order_display_id ?? item.order_id })}
                      </Link>
                    ) : (
                      t("paybright.attention.contract", { contract: item.contract })
                    )}
                    {` · ${amount}`}
                  </>
                )}
              </Text>
              <Text size="xsmall" className="text-ui-fg-subtle">
                {(item.message && say(item.said, item.message)) ||
                  (item.expires_at &&
                    t(
                      item.kind === "expiring_authorization"
                        ? "paybright.attention.expiring"
                        : OPEN[item.capture_on ?? "manual"],
                      { amount, date: date(item.expires_at) }
                    ))}
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
                      actions: item.order_id
                        ? item.actions.filter((action) => FROM_THE_LIST.has(action))
                        : item.actions,
                    }}
                  />
                </div>
              )}
            </div>
            {/* On one line, the entry's text wrapping beside it instead: a pill's height fits one line. */}
            <Badge size="2xsmall" color={COLORS[item.kind]} className="shrink-0 whitespace-nowrap">
              {item.expires_at
                ? t("paybright.attention.badgeExpires", {
                    label,
                    date: date(item.expires_at),
                    left: daysLeft(item.expires_at, t),
                  })
                : label}
            </Badge>
          </div>
        )
      })}
    </Container>
  )
}

function daysLeft(expiresAt: string, t: ReturnType<typeof useAdminText>["t"]) {
  const days = Math.ceil((new Date(expiresAt).getTime() - Date.now()) / DAY)
  return days <= 0 ? t("paybright.attention.expiredLeft") : t("paybright.attention.daysLeft", { count: days })
}

// A stable id (widget:paybright-needs-attention), so that a merchant's layout of the orders page
// (Customize: this widget above the table) keeps finding it.
export const config = defineWidgetConfig({ zone: "order.list.before", id: "paybright-needs-attention" })

export default PayBrightNeedsAttentionWidget
