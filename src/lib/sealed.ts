import { createCipheriv, createDecipheriv, createHmac, randomBytes } from "node:crypto"

/**
 * Facts the plugin keeps where the shopper can see them (the URLs the lender sends the shopper
 * back to), sealed: encrypted and authenticated (AES-256-GCM) under a key derived from the API
 * token. The storefront can neither read nor forge them, and a seal made for one purpose or one
 * binding opens for no other.
 */
export type SealPurpose = "return"

function keyOf(apiToken: string, purpose: SealPurpose): Buffer {
  return createHmac("sha256", Buffer.from(apiToken, "utf8")).update(`medusa-paybright:${purpose}:v1`).digest()
}

/** Seals `facts` for `purpose`, bound to `binding`. */
export function seal(apiToken: string, purpose: SealPurpose, binding: string, facts: object): string {
  const iv = randomBytes(12)
  const cipher = createCipheriv("aes-256-gcm", keyOf(apiToken, purpose), iv)
  cipher.setAAD(Buffer.from(binding, "utf8"))
  const body = Buffer.concat([cipher.update(JSON.stringify(facts), "utf8"), cipher.final()])
  return [iv, body, cipher.getAuthTag()].map((part) => part.toString("base64url")).join(".")
}

/** Opens a seal, or answers undefined for anything the plugin did not seal for this purpose and binding. */
export function unseal<T>(apiToken: string, purpose: SealPurpose, binding: string, sealed: unknown): T | undefined {
  if (typeof sealed !== "string" || sealed.length > 4096) {
    return undefined
  }
  const parts = sealed.split(".")
  if (parts.length !== 3) {
    return undefined
  }
  try {
    const [iv, body, tag] = parts.map((part) => Buffer.from(part, "base64url"))
    // The tag length is fixed: GCM would otherwise accept a truncated, forgeable tag.
    const decipher = createDecipheriv("aes-256-gcm", keyOf(apiToken, purpose), iv, { authTagLength: 16 })
    decipher.setAAD(Buffer.from(binding, "utf8"))
    decipher.setAuthTag(tag)
    const text = Buffer.concat([decipher.update(body), decipher.final()]).toString("utf8")
    return JSON.parse(text) as T
  } catch {
    return undefined
  }
}
