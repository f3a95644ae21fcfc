import type { AxiosInstance } from "axios"
import type { PayBrightApprovalRecord } from "../../src/types/admin"

/** What the lender delivers: the result's fields, to the URL it was given (x_url_callback with its ctx). */
export type Delivery = { callbackUrl: string; fields: Record<string, string> }

/** Reads the lender's result from the return redirect: the fields, and where the callback goes. */
export function deliveryOf(returnLocation: string, callbackUrl: string): Delivery {
  const url = new URL(returnLocation)
  const fields = Object.fromEntries([...url.searchParams].filter(([name]) => name.startsWith("x_")))
  return { callbackUrl, fields }
}

/** The lender's server-to-server callback, as a form post. */
export function deliverCallback(delivery: Delivery, fields: Record<string, string> = delivery.fields) {
  return fetch(delivery.callbackUrl, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  })
}

/** The admin's list of approvals in a state. */
export async function listApprovals(
  api: AxiosInstance,
  admin: { headers: Record<string, string> },
  state?: PayBrightApprovalRecord["state"]
): Promise<(PayBrightApprovalRecord & { message: string | null })[]> {
  const { data } = await api.get(`/admin/paybright/approvals?limit=100${state ? `&state=${state}` : ""}`, admin)
  return data.approvals
}

/** The approval of a contract, as the admin sees it. */
export async function approvalOf(
  api: AxiosInstance,
  admin: { headers: Record<string, string> },
  contract: string
): Promise<(PayBrightApprovalRecord & { message: string | null }) | undefined> {
  const all = await listApprovals(api, admin)
  return all.find((approval) => approval.contract === contract)
}
