import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { sdk } from "../lib/sdk"
import type {
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

/** Refreshes what an action may have changed: the panels, the needs-attention list, Medusa's own order pages. */
function useRefresh() {
  const queryClient = useQueryClient()
  return () => {
    void queryClient.invalidateQueries({ queryKey: ["paybright"] })
    void queryClient.invalidateQueries({ queryKey: ["orders"] })
  }
}

/** The panel's own actions; each refreshes the panel and the needs-attention list when it settles. */
export function usePanelActions() {
  const refresh = useRefresh()
  return {
    // Medusa's own admin capture route: the provider captures exactly this amount at the lender.
    captureRemainder: useMutation({
      mutationFn: ({ paymentId, amount }: { paymentId: string; amount: string }) =>
        sdk.admin.payment.capture(paymentId, { amount: Number(amount) }),
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
  const post = (path: string, body?: Record<string, unknown>) =>
    sdk.client.fetch(path, { method: "POST", ...(body ? { body } : {}) })
  return {
    retryCapture: useMutation({
      mutationFn: (recordId: string) => post(`/admin/paybright/captures/${recordId}/retry`),
      onSettled: refresh,
    }),
    retryRelease: useMutation({
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
    queryFn: async () => (await sdk.client.fetch<PayBrightAttentionResponse>("/admin/paybright/attention")).items,
  })
}
