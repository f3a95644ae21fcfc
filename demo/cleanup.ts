/**
 * What the demo started, to stop in reverse order: the page, the store, the simulator, the
 * database. Runs once, however many ways the demo ends (success, failure, Ctrl-C); an undo that
 * fails is reported and the others still run.
 */
export class Cleanup {
  private readonly undos: { what: string; undo: () => Promise<unknown> | unknown }[] = []
  private running?: Promise<string[]>

  add(what: string, undo: () => Promise<unknown> | unknown) {
    this.undos.push({ what, undo })
  }

  /** Answers the problems met, one line each. */
  run(): Promise<string[]> {
    this.running ??= (async () => {
      const problems: string[] = []
      for (const { what, undo } of this.undos.splice(0).reverse()) {
        try {
          await undo()
        } catch (error) {
          problems.push(`${what}: ${error instanceof Error ? error.message : String(error)}`)
        }
      }
      return problems
    })()
    return this.running
  }
}
