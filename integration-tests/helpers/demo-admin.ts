import { ADMIN_LOGIN } from "../../demo/store"

/**
 * The running demo's admin API over HTTP, logged in with the account the demo prints. Every call
 * but a 200 throws with the route and what it answered.
 */
export async function demoAdminApi(storeUrl: string) {
  const login = await fetch(`${storeUrl}/auth/user/emailpass`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(ADMIN_LOGIN),
  })
  const { token } = (await login.json()) as { token: string }
  const request = async (method: "GET" | "POST", route: string, body?: unknown) => {
    const response = await fetch(`${storeUrl}${route}`, {
      method,
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const answer = await response.json()
    if (response.status !== 200) throw new Error(`${route} answered ${response.status}: ${JSON.stringify(answer)}`)
    return answer
  }
  return {
    request,
    get: (route: string) => request("GET", route),
    call: (route: string, body: unknown) => request("POST", route, body),
  }
}
