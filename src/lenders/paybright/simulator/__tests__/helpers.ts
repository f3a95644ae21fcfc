import http from "node:http"
import type { AddressInfo } from "node:net"
import { LenderClient } from "../../client"
import { SIMULATOR_TEST_ACCOUNT, type Account, type Simulator } from ".."

/** What a store's callback endpoint received, and what it answered. */
export type Received = { fields: Record<string, string>; status: number }

/** A store's callback endpoint: answers the statuses it is given in turn, the last one from then on. */
export async function callbackReceiver(statuses: number[]) {
  const received: Received[] = []
  const server = http.createServer((req, res) => {
    let body = ""
    req.on("data", (chunk) => (body += chunk))
    req.on("end", () => {
      const status = statuses[Math.min(received.length, statuses.length - 1)]
      received.push({ fields: Object.fromEntries(new URLSearchParams(body)), status })
      res.writeHead(status)
      res.end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** A form POST as a browser sends it, without following the redirect. */
export function postForm(url: string, fields: Record<string, string>) {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual",
  })
}

/** Waits, briefly, for something asynchronous (a callback) to have happened. */
export async function until(check: () => boolean, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs
  while (!check() && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

export function sleep(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

/** The application_id the page's buttons carry. */
export function applicationId(html: string): string {
  const match = /name="application_id" value="([^"]+)"/.exec(html)
  if (!match) throw new Error("the page has no application_id")
  return match[1]
}

/** The fields of a redirect's query, as the store's return route would read them. */
export function queryFields(location: string | null, drop: string[] = []): Record<string, string> {
  const fields = Object.fromEntries(new URL(location ?? "").searchParams)
  drop.forEach((name) => delete fields[name])
  return fields
}

export function basicAuth(apiKey: string, apiToken: string) {
  return { authorization: `Basic ${Buffer.from(`${apiKey}:${apiToken}`).toString("base64")}` }
}

/** A lender client on both of the simulator's hosts for `account`, which never retries. */
export function clientOf(simulator: Simulator, account: Account = SIMULATOR_TEST_ACCOUNT) {
  return new LenderClient({
    apiUrl: simulator.apiUrl,
    checkoutUrl: simulator.checkoutUrl,
    ...account,
    timeoutMs: 2000,
    readRetries: 0,
  })
}
