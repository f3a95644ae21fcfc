import http from "node:http"
import type { AddressInfo } from "node:net"
import { LenderClient } from "../client"
import type { VoidRequest } from "../order-management"
import {
  LenderAuthError,
  LenderDeclinedError,
  LenderError,
  LenderNetworkError,
  LenderNotFoundError,
  LenderRejectedError,
  LenderResponseError,
  LenderUnavailableError,
} from "../../errors"
import { signFields, verifySignature } from "../signing"

const ACCOUNT = { apiKey: "merchant_key", apiToken: "merchant-token-secret" }
const REQUEST: VoidRequest = { reference: "ref-123", amount: "250.5", currency: "CAD", test: true }

type Seen = { method?: string; url?: string; headers: http.IncomingHttpHeaders; body: string }
type Reply = { status?: number; type?: string; body?: string; headers?: Record<string, string> } | "hang" | "reset"

/** A lender answering each void with `reply(request fields)`, and keeping what it received. */
async function fakeLender(reply: (fields: Record<string, string>) => Reply) {
  const seen: Seen[] = []
  const server = http.createServer((req, res) => {
    let body = ""
    req.on("data", (chunk) => (body += chunk))
    req.on("end", () => {
      seen.push({ method: req.method, url: req.url, headers: req.headers, body })
      const answer = reply(JSON.parse(body))
      if (answer === "hang") return
      if (answer === "reset") return req.socket.destroy()
      res.writeHead(answer.status ?? 200, {
        "content-type": answer.type ?? "application/x-www-form-urlencoded",
        ...answer.headers,
      })
      res.end(answer.body ?? "")
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    seen,
    client: new LenderClient({ apiUrl: `${base}/rest`, checkoutUrl: `${base}/`, ...ACCOUNT, timeoutMs: 500 }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** The answer a lender gives a void: the request's echoes, signed with `token`. */
function answerTo(
  fields: Record<string, string>,
  change: Record<string, string | undefined> = {},
  token = ACCOUNT.apiToken
) {
  const answer = signFields(
    {
      x_account_id: fields.x_account_id,
      x_amount: fields.x_amount,
      x_currency: fields.x_currency,
      x_gateway_reference: fields.x_gateway_reference,
      x_reference: fields.x_reference,
      x_result: "completed",
      x_test: fields.x_test,
      x_timestamp: "2024-05-01T12:00:00Z",
      x_transaction_type: "void",
      ...change,
    },
    token
  )
  return new URLSearchParams(answer).toString()
}

async function voidWith(reply: (fields: Record<string, string>) => Reply, request = REQUEST) {
  const lender = await fakeLender(reply)
  try {
    const result = await lender.client.voidAuthorization("51325", request).then(
      (answer) => ({ answer, error: undefined }),
      (error) => ({ answer: undefined, error })
    )
    return { ...result, seen: lender.seen }
  } finally {
    await lender.close()
  }
}

/** Everything an error carries, as text, to look for what must not be there. */
function everything(error: LenderError) {
  return JSON.stringify({ ...error, message: error.message }) + String(error.stack)
}

describe("lender client: void over the order-management call", () => {
  it("posts the signed JSON strings to /checkout/api2.aspx with no Authorization header, and answers the evidence when done", async () => {
    const { answer, error, seen } = await voidWith((fields) => ({ body: answerTo(fields) }))
    expect(error).toBeUndefined()
    expect(seen).toHaveLength(1)
    const [request] = seen
    expect(request.method).toBe("POST")
    expect(request.url).toBe("/checkout/api2.aspx")
    expect(request.headers["content-type"]).toMatch(/^application\/json/)
    expect(request.headers.authorization).toBeUndefined()
    expect(JSON.stringify(request.headers)).not.toContain(Buffer.from(`${ACCOUNT.apiKey}:`).toString("base64"))
    const body = JSON.parse(request.body)
    expect(body).toEqual({
      x_account_id: "merchant_key",
      x_amount: "250.50",
      x_currency: "CAD",
      x_reference: "ref-123",
      x_gateway_reference: "51325",
      x_transaction_type: "void",
      x_test: "true",
      x_signature: expect.stringMatching(/^[0-9a-f]{64}$/),
    })
    expect(Object.values(body).every((value) => typeof value === "string")).toBe(true)
    expect(verifySignature(body, ACCOUNT.apiToken)).toBe(true)
    expect(answer).toMatchObject({ x_result: "completed", x_amount: "250.50", x_gateway_reference: "51325" })
  })

  it("names the callback only when given, and signs it", async () => {
    const { seen } = await voidWith((fields) => ({ body: answerTo(fields) }), {
      ...REQUEST,
      test: false,
      callbackUrl: "https://shop.example/paybright/void?x=1&y=2",
    })
    const body = JSON.parse(seen[0].body)
    expect(body).toMatchObject({ x_url_callback: "https://shop.example/paybright/void?x=1&y=2", x_test: "false" })
    expect(verifySignature(body, ACCOUNT.apiToken)).toBe(true)
  })

  it("is done on `completed` in any case, and compares the amount as an amount", async () => {
    const { answer } = await voidWith((fields) => ({
      body: answerTo(fields, { x_result: "Completed", x_amount: "250.5" }),
    }))
    expect(answer).toMatchObject({ x_result: "Completed" })
  })

  it("is refused when the lender signs `failed`, with its words and the evidence", async () => {
    const { error } = await voidWith((fields) => ({
      body: answerTo(fields, { x_result: "failed", x_message: "Contract already captured" }),
    }))
    expect(error).toBeInstanceOf(LenderDeclinedError)
    expect(error).toMatchObject({
      outcome: "refused",
      code: "not_voided",
      status: 200,
      lenderMessage: "Contract already captured",
      evidence: expect.objectContaining({ x_result: "failed", x_gateway_reference: "51325" }),
    })
  })

  it.each([
    ["an unknown result", { x_result: "pending" }, "unknown_result"],
    ["another amount", { x_amount: "250.51" }, "echo_mismatch"],
    ["another contract", { x_gateway_reference: "51326" }, "echo_mismatch"],
    ["another currency", { x_currency: "USD" }, "echo_mismatch"],
    ["another account", { x_account_id: "someone_else" }, "echo_mismatch"],
    ["another test flag", { x_test: "false" }, "echo_mismatch"],
    ["another operation", { x_transaction_type: "capture" }, "echo_mismatch"],
    ["another reference", { x_reference: "ref-999" }, "echo_mismatch"],
    ["no amount", { x_amount: undefined }, "bad_response"],
  ])("is in doubt on a signed `completed` with %s", async (_name, change, code) => {
    const { error } = await voidWith((fields) => ({ body: answerTo(fields, change) }))
    expect(error).toBeInstanceOf(LenderResponseError)
    expect(error).toMatchObject({ outcome: "in_doubt", code, status: 200 })
    expect(error.evidence).toBeDefined()
  })

  it("is in doubt when the signature does not verify, is missing, or the body is not a signed form", async () => {
    const cases: [(fields: Record<string, string>) => Reply, string][] = [
      [(fields) => ({ body: answerTo(fields, {}, "another-token") }), "bad_signature"],
      [(fields) => ({ body: answerTo(fields).replace(/x_result=completed/, "x_result=failed") }), "bad_signature"],
      [(fields) => ({ body: answerTo(fields).replace(/&x_signature=[0-9a-f]+/, "") }), "bad_response"],
      [(fields) => ({ body: `${answerTo(fields)}&x_result=failed` }), "bad_response"],
      [() => ({ body: "<html><body>Thank you</body></html>", type: "text/html" }), "bad_response"],
      [() => ({ body: "" }), "bad_response"],
      [(fields) => ({ status: 201, body: answerTo(fields) }), "unexpected_status"],
    ]
    for (const [reply, code] of cases) {
      const { error } = await voidWith(reply)
      expect(error).toBeInstanceOf(LenderError)
      expect({ code: error.code, outcome: error.outcome }).toEqual({ code, outcome: "in_doubt" })
      expect(error.message).not.toMatch(/[0-9a-f]{64}/)
    }
  })

  it("maps the lender's statuses as for every call: refused when it certainly did nothing, in doubt otherwise", async () => {
    const cases: [Reply, new (...args: never[]) => LenderError, string, string][] = [
      [
        { status: 400, type: "application/json", body: '{"message":"x_amount is invalid"}' },
        LenderRejectedError,
        "rejected",
        "refused",
      ],
      [{ status: 400, body: "x_result=failed&x_message=Bad+request" }, LenderRejectedError, "rejected", "refused"],
      [{ status: 401, body: "" }, LenderAuthError, "unauthorized", "refused"],
      [{ status: 404, body: "" }, LenderNotFoundError, "not_found", "refused"],
      [{ status: 429, body: "", headers: { "retry-after": "30" } }, LenderUnavailableError, "rate_limited", "refused"],
      [{ status: 500, body: "" }, LenderUnavailableError, "unavailable", "in_doubt"],
      [
        { status: 502, type: "text/html", body: "<h1>Bad gateway</h1>" },
        LenderUnavailableError,
        "unavailable",
        "in_doubt",
      ],
      [{ status: 302, body: "", headers: { location: "/elsewhere" } }, LenderError, "unexpected_status", "in_doubt"],
      ["hang", LenderNetworkError, "timeout", "in_doubt"],
      ["reset", LenderNetworkError, "network", "in_doubt"],
    ]
    for (const [reply, type, code, outcome] of cases) {
      const { error, seen } = await voidWith(() => reply)
      expect(error).toBeInstanceOf(type)
      expect({ code: error.code, outcome: error.outcome }).toEqual({ code, outcome })
      // Never retried: one request, whatever came back.
      expect(seen).toHaveLength(1)
    }
    const { error } = await voidWith(() => ({ status: 400, body: "x_result=failed&x_message=Bad+request" }))
    expect(error.lenderMessage).toBe("Bad request")
  })

  it("is refused, having sent nothing, when the lender cannot be reached or the request is not valid", async () => {
    const lender = await fakeLender((fields) => ({ body: answerTo(fields) }))
    await lender.close()
    const unreachable = await lender.client.voidAuthorization("51325", REQUEST).catch((caught) => caught)
    expect(unreachable).toMatchObject({ code: "network", outcome: "refused", maybeDone: false })

    const { error, seen } = await voidWith((fields) => ({ body: answerTo(fields) }), { ...REQUEST, amount: "250.505" })
    expect(error).toMatchObject({ code: "invalid_request", outcome: "refused" })
    expect(error.message).toMatch(/x_amount/)
    expect(seen).toHaveLength(0)
  })

  it("keeps the token, the Basic credential and the signature out of every error", async () => {
    const replies: ((fields: Record<string, string>) => Reply)[] = [
      (fields) => ({ body: answerTo(fields, { x_result: "failed", x_message: "No" }) }),
      (fields) => ({ body: answerTo(fields, {}, "another-token") }),
      (fields) => ({ body: answerTo(fields, { x_amount: "1.00" }) }),
      () => ({ status: 401, type: "application/json", body: '{"message":"Signature problem"}' }),
      () => "hang",
    ]
    const credential = Buffer.from(`${ACCOUNT.apiKey}:${ACCOUNT.apiToken}`).toString("base64")
    for (const reply of replies) {
      const { error, seen } = await voidWith(reply)
      const text = everything(error)
      expect(text).not.toContain(ACCOUNT.apiToken)
      expect(text).not.toContain(credential)
      expect(text).not.toContain(JSON.parse(seen[0].body).x_signature)
      expect(error.message).not.toMatch(/x_signature|[0-9a-f]{64}/)
    }
  })
})
