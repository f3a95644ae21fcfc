import type { IncomingMessage, ServerResponse } from "node:http"

/** Small helpers for the simulator's node:http handlers. */

const BODY_LIMIT = 100 * 1024

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string
  ) {
    super(message)
  }
}

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req) {
    size += (chunk as Buffer).length
    if (size > BODY_LIMIT) {
      throw new HttpError(413, "request body too large")
    }
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks).toString("utf8")
}

/** A form body as a flat record; a repeated field is refused, as it could not have been signed. */
export function parseForm(body: string): Record<string, string> {
  const fields: Record<string, string> = {}
  for (const [name, value] of new URLSearchParams(body)) {
    if (name in fields) {
      throw new HttpError(400, `field ${name} appears more than once`)
    }
    fields[name] = value
  }
  return fields
}

export function sendJson(res: ServerResponse, status: number, payload: unknown) {
  sendText(res, status, JSON.stringify(payload), "application/json")
}

export function sendText(res: ServerResponse, status: number, body: string, type: string) {
  res.writeHead(status, { "content-type": `${type}; charset=utf-8`, "cache-control": "no-store" })
  res.end(body)
}

export function sendHtml(res: ServerResponse, status: number, html: string) {
  sendText(res, status, html, "text/html")
}

export function redirect(res: ServerResponse, location: string) {
  res.writeHead(303, { location, "cache-control": "no-store" })
  res.end()
}

/** The API key and token of an HTTP Basic header, or undefined. */
export function basicCredentials(req: IncomingMessage): { apiKey: string; apiToken: string } | undefined {
  const header = req.headers.authorization
  const match = header ? /^Basic\s+([A-Za-z0-9+/=]+)$/.exec(header) : null
  if (!match) {
    return undefined
  }
  const decoded = Buffer.from(match[1], "base64").toString("utf8")
  const colon = decoded.indexOf(":")
  return colon < 0 ? undefined : { apiKey: decoded.slice(0, colon), apiToken: decoded.slice(colon + 1) }
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[char]!)
}
