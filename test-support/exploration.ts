/**
 * How many cases a random exploration (a property, the model's days) draws. `npm test` draws a
 * small budget, so that it stays short on two cores; CI draws the whole one as well
 * (PAYBRIGHT_EXPLORATION=full, `npm run test:explorations`). With a fixed seed, the quick run is
 * the start of the full one: fast-check draws the same cases in the same order.
 */
export function explorationBudget(budget: { quick: number; full: number }): number {
  const mode = process.env.PAYBRIGHT_EXPLORATION ?? "quick"
  if (mode !== "quick" && mode !== "full") {
    throw new Error(`PAYBRIGHT_EXPLORATION must be quick or full, not ${JSON.stringify(mode)}`)
  }
  return budget[mode]
}
