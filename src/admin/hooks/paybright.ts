import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { FetchError } from "@medusajs/js-sdk"
import { sdk } from "../lib/sdk"
import type {
  PayBrightApprovalRecord,
  PayBrightAttentionItem,
  PayBrightAttentionResponse,
  PayBrightOrderPanelResponse,
  PayBrightRevealedCard,
  PayBrightSettingsCheck,
  PayBrightSettingsResponse,
  PayBrightSettingsSaved,
  PayBrightSettingsUpdate,
} from "../../types/admin"

/** Query keys of the PayBright admin, so an action refreshes exactly what it changed. */
export const paybrightKeys = {
  settings: ["paybright", "settings"] as const,
  panel: (orderId: string) => ["paybright", "panel", orderId] as const,
  attention: ["paybright", "attention"] as const,
}

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

export function useOrderPanel(orderId: string) {
  return useQuery({
    queryKey: paybrightKeys.panel(orderId),
    queryFn: () => sdk.client.fetch<PayBrightOrderPanelResponse>(`/admin/paybright/orders/${orderId}/panel`),
  })
}

/** The panel's actions; each refreshes the panel and the needs-attention list when it settles. */
export function usePanelActions(orderId: string) {
  const queryClient = useQueryClient()
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: paybrightKeys.panel(orderId) })
    void queryClient.invalidateQueries({ queryKey: paybrightKeys.attention })
    // Medusa's own order page shows the payment too.
    void queryClient.invalidateQueries({ queryKey: ["orders"] })
  }
  return {
    // Medusa's own admin capture route: the provider captures exactly this amount at the lender.
    captureRemainder: useMutation({
      mutationFn: ({ paymentId, amount }: { paymentId: string; amount: string }) =>
        sdk.admin.payment.capture(paymentId, { amount: Number(amount) }),
      onSettled: refresh,
    }),
    retryCapture: useMutation({
      mutationFn: (recordId: string) =>
        sdk.client.fetch(`/admin/paybright/captures/${recordId}/retry`, { method: "POST" }),
      onSettled: refresh,
    }),
    resolveRecord: useMutation({
      mutationFn: ({ recordId, lenderShows }: { recordId: string; lenderShows: "done" | "nothing" }) =>
        sdk.client.fetch(`/admin/paybright/records/${recordId}/resolve`, {
          method: "POST",
          body: { lender_shows: lenderShows },
        }),
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

/**
 * The needs-attention list: the plugin's own list, with approvals that never became an order
 * from the approvals route (absent on stores without it: then there are none to show).
 */
export function useNeedsAttention() {
  return useQuery({
    queryKey: paybrightKeys.attention,
    queryFn: async (): Promise<PayBrightAttentionItem[]> => {
      const [{ items }, orphaned] = await Promise.all([
        sdk.client.fetch<PayBrightAttentionResponse>("/admin/paybright/attention"),
        sdk.client
          .fetch<{ approvals: PayBrightApprovalRecord[] }>("/admin/paybright/approvals", {
            query: { state: "orphaned", limit: 50 },
          })
          .then(
            ({ approvals }) => approvals,
            (error: unknown) => {
              if (error instanceof FetchError && error.status === 404) return []
              throw error
            }
          ),
      ])
      return [...items, ...orphaned.map(orphanedItem)]
    },
  })
}

function orphanedItem(approval: PayBrightApprovalRecord): PayBrightAttentionItem {
  return {
    kind: "orphaned_approval",
    order_id: approval.order_id,
    order_display_id: null,
    contract: approval.contract,
    amount: approval.amount,
    currency_code: approval.currency_code,
    message: `Approved by PayBright but never became an order${approval.reason ? ` (${approval.reason})` : ""}: cancel contract ${approval.contract} in the PayBright portal.`,
    expires_at: null,
    at: approval.created_at,
  }
}
