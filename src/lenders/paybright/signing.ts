import { createHmac, timingSafeEqual } from "node:crypto"

/** A flat set of lender fields as they travel in a form, a query string or a JSON body. */
export type LenderFields = Record<string, string | number | boolean | null | undefined>

/**
 * The message the lender signs: every `x_` field except `x_signature`, empty values dropped,
 * sorted by name in byte order, joined as `name + value` with no separators (protocol.md §3).
 */
export function signatureMessage(fields: LenderFields): string {
  return Object.keys(fields)
    .filter((name) => name.startsWith("x_") && name !== "x_signature")
    .filter((name) => !isEmpty(fields[name]))
    .sort(compareBytes)
    .map((name) => name + String(fields[name]))
    .join("")
}

/** HMAC-SHA256 of the signature message, keyed with the API token, as lowercase hex. */
export function sign(fields: LenderFields, apiToken: string): string {
  return createHmac("sha256", Buffer.from(apiToken, "utf8")).update(signatureMessage(fields), "utf8").digest("hex")
}

/** Returns the fields with empty values removed and `x_signature` set, ready to send. */
export function signFields<T extends LenderFields>(fields: T, apiToken: string): Record<string, string> {
  const present: Record<string, string> = {}
  for (const [name, value] of Object.entries(fields)) {
    // Empty values are left out of the request itself, not only the signature (protocol.md §2).
    if (!isEmpty(value) && name !== "x_signature") {
      present[name] = String(value)
    }
  }
  present.x_signature = sign(present, apiToken)
  return present
}

/**
 * Checks `x_signature` over exactly the fields received, in constant time.
 * Hex case is ignored, as the lender documents; everything else must match byte for byte.
 */
export function verifySignature(fields: LenderFields, apiToken: string): boolean {
  const received = fields.x_signature
  if (typeof received !== "string" || !/^[0-9a-fA-F]{64}$/.test(received)) {
    return false
  }
  const expected = Buffer.from(sign(fields, apiToken), "hex")
  return timingSafeEqual(expected, Buffer.from(received.toLowerCase(), "hex"))
}

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || value === ""
}

// Byte order, not locale order: "x_Z" sorts before "x_a" as the lender computes it.
function compareBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"))
}
