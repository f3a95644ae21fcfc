import { createHash } from "node:crypto"

/** How long a verdict that credentials were accepted stands: from the page's check to its save. */
const ACCEPTED_STANDS_MS = 2 * 60_000
/** Accepted credentials, by a digest of what was tested (never the secrets themselves), with when. */
const accepted = new Map<string, { at: number; message: string }>()

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
): Promise<T | { accepted: true; message: string }> {
  const digest = createHash("sha256").update(JSON.stringify(tested)).digest("hex")
  for (const [key, verdict] of accepted) if (now - verdict.at >= ACCEPTED_STANDS_MS) accepted.delete(key)
  const known = accepted.get(digest)
  if (known) return { accepted: true, message: known.message }
  const verdict = await test()
  if (verdict.accepted) accepted.set(digest, { at: now, message: verdict.message })
  return verdict
}
