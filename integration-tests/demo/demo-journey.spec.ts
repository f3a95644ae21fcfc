import { DemoRun, suitePostgres } from "./run-demo"

jest.setTimeout(300_000)

/**
 * The README's first command, end to end, in both capture modes: the first on a PostgreSQL of its
 * own, as on a fresh machine; the second on the suite's server (DB_*), as a developer points it.
 */
describe("npm run demo", () => {
  it.each([
    [[] as string[], {} as Record<string, string>],
    [["--mode", "virtual_card"], suitePostgres()],
  ])("runs the journey %p and finds Medusa's totals equal to the lender's", async (args, database) => {
    const demo = new DemoRun(args, database)
    const code = await demo.exited
    expect(demo.output).toMatch(/Shopper returns to the store: order placed \(order_/)
    expect(demo.output).toMatch(/Lender's callback delivered \(HTTP 200/)
    // On the suite's server, the demo's database is a copy of the template npm test migrated.
    const premigrated = Boolean(database.DB_HOST) && Boolean(process.env.PAYBRIGHT_MIGRATED_TEMPLATE_SERVER)
    expect(/Run Medusa's migrations \(none left/.test(demo.output)).toBe(premigrated)
    const table =
      /authorized\s+(\d+\.\d\d)\s+(\d+\.\d\d)\ncaptured\s+(\d+\.\d\d)\s+(\d+\.\d\d)[\s\S]*?refunded\s+(\d+\.\d\d)\s+(\d+\.\d\d)/.exec(
        demo.output
      )
    expect(table).not.toBeNull()
    const [, authorizedLender, authorizedMedusa, capturedLender, capturedMedusa, refundedLender, refundedMedusa] =
      table!
    expect(capturedLender).toBe(authorizedLender)
    expect({ authorizedMedusa, capturedMedusa, refundedMedusa }).toEqual({
      authorizedMedusa: authorizedLender,
      capturedMedusa: capturedLender,
      refundedMedusa: refundedLender,
    })
    expect(refundedLender).toBe("25.00")
    expect(demo.output).toContain("Medusa's totals agree with the lender's to the cent.")
    expect(code).toBe(0)
  })
})
