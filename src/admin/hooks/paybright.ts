import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useEffect, useRef } from "react"
import { postAction, sdk } from "../lib/sdk"
import type {
  PayBrightAttentionResponse,
  PayBrightCaptureAnswer,
  PayBrightOrderPanelResponse,
  PayBrightRevealedCard,
  PayBrightSettingsCheck,
  PayBrightSettingsResponse,
  PayBrightSettingsSaved,
  PayBrightSettingsUpdate,
} from "../../lib/admin-types"

/**
 * Query keys of the PayBright admin. The panel's and the needs-attention list's sit under Medusa's
 * own order keys (`["orders", "detail", id]`, `["orders"]`): every action of Medusa's that
 * refreshes the order (ship, capture, refund, cancel) refreshes them too, as Medusa's own cards.
 */
export const paybrightKeys = {
  settings: ["paybright", "settings"] as const,
  order: (orderId: string) => ["orders", "detail", orderId] as const,
  panel: (orderId: string) => ["orders", "detail", orderId, "paybright-panel"] as const,
  attention: ["orders", "paybright-attention"] as const,
}

/** How often the panel looks again while a capture PayBright makes by itself, or a carry, is expected. */
const EXPECTED_CAPTURE_POLL_MS = 2_000

export function useSettings() {
  return useQuery({
    queryKey: paybrightKeys.settings,
    queryFn: () => sdk.client.fetch<PayBrightSettingsResponse>("/admin/paybright/settings"),
  })
}

/**
 * Checks the form (options schema, encryption key, credentials against the lender), then saves
 * it: a problem comes back as `check` with one message per field, and nothing is stored.
 */
export function useSaveSettings(providerId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (
      update: PayBrightSettingsUpdate
    ): Promise<{ check: PayBrightSettingsCheck; saved?: PayBrightSettingsSaved }> => {
      const path = `/admin/paybright/settings/${providerId}`
      const check = await sdk.client.fetch<PayBrightSettingsCheck>(`${path}/check`, { method: "POST", body: update })
      if (!check.valid) return { check }
      const saved = await sdk.client.fetch<PayBrightSettingsSaved>(path, { method: "POST", body: update })
      return { check, saved }
    },
    onSuccess: ({ saved }) => {
      if (saved) void queryClient.invalidateQueries({ queryKey: paybrightKeys.settings })
    },
  })
}

/**
 * The order's panel. After a shipment, the capture PayBright makes by itself lands a moment after
 * Medusa refreshed the order: the panel looks again every 2 s until it does (for 2 minutes at
 * most); so does it after an order change, until the contract is carried into the order's new
 * payment (Medusa cancels the old one first, and refreshes the order before the carry lands).
 * Whenever the panel finds the payment moved on since its last look (that capture, the carried
 * payment, or either landing before Medusa's own refresh reached the panel), it has Medusa refresh the order too,
 * so Medusa's own payment card shows it.
 *
 * Medusa refreshes the order only when its own capture, refund or cancel succeeds: one PayBright
 * refused changes nothing of Medusa's, only the panel's records, and Medusa's mutations carry no
 * key to tell them apart. So any mutation failing on the page while the panel is shown (they all
 * run through the one QueryClient) has the panel look again at once.
 */
export function useOrderPanel(orderId: string) {
  const queryClient = useQueryClient()
  const seen = useRef<string | null>(null)
  useEffect(
    () =>
      queryClient.getMutationCache().subscribe((event) => {
        if (event.type === "updated" && event.action.type === "error") {
          void queryClient.invalidateQueries({ queryKey: paybrightKeys.panel(orderId) })
        }
      }),
    [queryClient, orderId]
  )
  return useQuery({
    queryKey: paybrightKeys.panel(orderId),
    staleTime: 0,
    queryFn: async () => {
      const answer = await sdk.client.fetch<PayBrightOrderPanelResponse>(`/admin/paybright/orders/${orderId}/panel`)
      const panel = answer.panel
      const now = panel ? [panel.payment_id, panel.status, panel.captured, panel.refunded].join("|") : "none"
      if (seen.current !== null && seen.current !== now) {
        // Medusa's own queries of the order, not this one (which is answering now).
        void queryClient.invalidateQueries({
          queryKey: paybrightKeys.order(orderId),
          predicate: (query) => query.queryKey[3] !== "paybright-panel",
        })
      }
      seen.current = now
      return answer
    },
    refetchInterval: (query) => {
      const panel = query.state.data?.panel
      const expecting = [panel?.capture_expected, panel?.carry_expected].some((each) => each && !each.overdue)
      return expecting ? EXPECTED_CAPTURE_POLL_MS : false
    },
  })
}

/**
 * Refreshes what an action may have changed: Medusa's own order pages and, as their keys sit
 * under Medusa's, the panels and the needs-attention list.
 */
function useRefresh() {
  const queryClient = useQueryClient()
  return () => void queryClient.invalidateQueries({ queryKey: ["orders"] })
}

/** The panel's own actions; each refreshes the panel and the needs-attention list when it settles. */
export function usePanelActions() {
  const refresh = useRefresh()
  return {
    // Medusa's own admin capture route: the provider captures exactly this amount at the lender. A
    // refusal keeps its sentence as facts, for the toast to write it in the admin's language.
    captureRemainder: useMutation({
      mutationFn: ({ paymentId, amount }: { paymentId: string; amount: string }) =>
        postAction(`/admin/payments/${paymentId}/capture`, { amount: Number(amount) }),
      onSettled: refresh,
    }),
    revealCard: useMutation({
      mutationFn: (paymentId: string) =>
        sdk.client.fetch<{ card: PayBrightRevealedCard }>(`/admin/paybright/payments/${paymentId}/card/reveal`, {
          method: "POST",
        }),
      onSettled: refresh,
    }),
  }
}

/** What a merchant does about a record or an orphaned approval, from the panel or the needs-attention list. */
export function useRecordActions() {
  const refresh = useRefresh()
  const post = (path: string, body?: Record<string, unknown>) => postAction<unknown>(path, body)
  return {
    retryCapture: useMutation({
      mutationFn: (recordId: string) =>
        post(`/admin/paybright/captures/${recordId}/retry`) as Promise<{ capture: PayBrightCaptureAnswer }>,
      onSettled: refresh,
    }),
    retryVoid: useMutation({
      mutationFn: (recordId: string) => post(`/admin/paybright/voids/${recordId}/retry`),
      onSettled: refresh,
    }),
    resolveRecord: useMutation({
      mutationFn: ({ recordId, lenderShows }: { recordId: string; lenderShows: "done" | "nothing" }) =>
        post(`/admin/paybright/records/${recordId}/resolve`, { lender_shows: lenderShows }),
      onSettled: refresh,
    }),
    markHandled: useMutation({
      mutationFn: (approvalId: string) => post(`/admin/paybright/approvals/${approvalId}/handled`),
      onSettled: refresh,
    }),
  }
}

/** The needs-attention list, sorted and worded by the server. */
export function useNeedsAttention() {
  return useQuery({
    queryKey: paybrightKeys.attention,
    staleTime: 0,
    queryFn: async () => (await sdk.client.fetch<PayBrightAttentionResponse>("/admin/paybright/attention")).items,
  })
}
