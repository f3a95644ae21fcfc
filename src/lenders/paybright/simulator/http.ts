import type { IncomingMessage, ServerResponse } from "node:http"

/** Small helpers for the simulator's node:http handlers. */

/** Largest request body accepted; the lender's requests are a few kilobytes at most. */
export const BODY_LIMIT = 100 * 1024

/** Thrown by a handler to answer with `status`; the server turns it into HTML or JSON. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {}
  ) {
    super(message)
  }
}

/**
 * The request body as text, refused with 413 beyond BODY_LIMIT. The rest of an oversized body
 * is drained rather than the socket destroyed, so that the client still reads the 413.
 */
export function readBody(req: IncomingMessage): Promise<string> {
  const declared = Number(req.headers["content-length"] ?? 0)
  if (declared > BODY_LIMIT) {
    req.resume()
    return Promise.reject(tooLarge())
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    let refused = false
    req.on("data", (chunk: Buffer) => {
      size += chunk.length
      if (size > BODY_LIMIT && !refused) {
        refused = true
        chunks.length = 0
        reject(tooLarge())
      }
      if (!refused) chunks.push(chunk)
    })
    req.on("end", () => refused || resolve(Buffer.concat(chunks).toString("utf8")))
    req.on("error", reject)
  })
}

function tooLarge() {
  return new HttpError(413, `request body larger than ${BODY_LIMIT / 1024} kB`, { connection: "close" })
}

/** A form body as a flat record; a repeated field is refused, as it could not have been signed. */
export function parseForm(body: string): Record<string, string> {
  const fields: Record<string, string> = {}
  for (const [name, value] of new URLSearchParams(body)) {
    if (Object.prototype.hasOwnProperty.call(fields, name)) {
      throw new HttpError(400, `field ${name} appears more than once`)
    }
    fields[name] = value
  }
  return fields
}

/** A JSON body, or HttpError 400 when it is not JSON. */
export async function readJson(req: IncomingMessage): Promise<unknown> {
  const text = await readBody(req)
  try {
    return JSON.parse(text)
  } catch {
    throw new HttpError(400, "the body is not JSON")
  }
}

export function sendJson(res: ServerResponse, status: number, payload: unknown, headers: Record<string, string> = {}) {
  sendText(res, status, JSON.stringify(payload), "application/json", headers)
}

export function sendText(
  res: ServerResponse,
  status: number,
  body: string,
  type: string,
  headers: Record<string, string> = {}
) {
  res.writeHead(status, { "content-type": `${type}; charset=utf-8`, "cache-control": "no-store", ...headers })
  res.end(body)
}

export function sendHtml(res: ServerResponse, status: number, html: string, headers: Record<string, string> = {}) {
  sendText(res, status, html, "text/html", headers)
}

/** 303 so that the browser follows a POST with a GET, as after the lender's own pages. */
export function redirect(res: ServerResponse, location: string) {
  res.writeHead(303, { location, "cache-control": "no-store" })
  res.end()
}

/** The API key and token of an HTTP Basic header, or undefined. */
export function basicCredentials(req: IncomingMessage): { apiKey: string; apiToken: string } | undefined {
  const header = req.headers.authorization
  const match = header ? /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header) : null
  if (!match) {
    return undefined
  }
  const decoded = Buffer.from(match[1], "base64").toString("utf8")
  const colon = decoded.indexOf(":")
  return colon < 0 ? undefined : { apiKey: decoded.slice(0, colon), apiToken: decoded.slice(colon + 1) }
}

export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[char]!
  )
}

/** ISO-8601 UTC without milliseconds, `YYYY-MM-DDTHH:MM:SSZ`, as the lender writes x_timestamp. */
export function lenderTimestamp(date = new Date()): string {
  return date.toISOString().replace(/\.\d{3}Z$/, "Z")
}
