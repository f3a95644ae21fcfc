import { createHash } from "node:crypto"

/** How long a verdict that credentials were accepted stands: from the page's check to its save. */
const ACCEPTED_STANDS_MS = 2 * 60_000
/** Accepted credentials, by a digest of what was tested (never the secrets themselves), with when. */
const accepted = new Map<string, { at: number; verdict: unknown }>()

/**
 * A credentials test, run once per save: the settings page checks the form (the check route) and
 * then saves it, and the save takes the check's verdict instead of asking the lender or Stripe
 * again, while the same credentials were accepted by this process moments ago. A refusal is never
 * remembered: each try asks again.
 */
export async function acceptedLately<T extends { accepted: boolean; message: string }>(
  tested: unknown[],
  test: () => Promise<T>,
  now = Date.now()
): Promise<T> {
  const digest = createHash("sha256").update(JSON.stringify(tested)).digest("hex")
  for (const [key, known] of accepted) if (now - known.at >= ACCEPTED_STANDS_MS) accepted.delete(key)
  const known = accepted.get(digest)
  // The same test answers the same shape: the verdict is given back whole, as it was first answered.
  if (known) return known.verdict as T
  const verdict = await test()
  if (verdict.accepted) accepted.set(digest, { at: now, verdict })
  return verdict
}
