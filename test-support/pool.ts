/**
 * Runs `work` for 0..count-1 with at most `concurrency` runs at once, each caller taking the next
 * index as soon as its run ends; answers each run's result or error, by index.
 */
export async function inPool<T>(
  count: number,
  concurrency: number,
  work: (index: number) => Promise<T>
): Promise<({ ok: true; value: T } | { ok: false; error: unknown })[]> {
  const results: ({ ok: true; value: T } | { ok: false; error: unknown })[] = new Array(count)
  let next = 0
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) {
        const index = next++
        try {
          results[index] = { ok: true, value: await work(index) }
        } catch (error) {
          results[index] = { ok: false, error }
        }
      }
    })
  )
  return results
}
