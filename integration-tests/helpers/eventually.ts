import { isDeepStrictEqual } from "node:util"

/**
 * Reads until the reading equals what is expected, or the time is up, and answers the last
 * reading: for state that Medusa or a subscriber settles just after the call a test waited for
 * (a payment collection's totals after its capture), so the test asserts what a person would see.
 */
export async function eventually<T>(read: () => Promise<T>, expected: T, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const reading = await read()
    if (isDeepStrictEqual(reading, expected) || Date.now() > deadline) return reading
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}
