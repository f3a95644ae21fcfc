import fs from "node:fs"
import net from "node:net"
import path from "node:path"
import { DemoRun, stillRunning } from "./run-demo"

jest.setTimeout(300_000)

const STORES = path.resolve(__dirname, "../../.demo")

/** What a person sees when the demo cannot run or is stopped halfway, and what it leaves behind. */
describe("npm run demo, when things go wrong", () => {
  it("reports a busy port with the port and what to do, before starting anything", async () => {
    const busy = net.createServer()
    await new Promise<void>((resolve) => busy.listen(0, "127.0.0.1", () => resolve()))
    const port = (busy.address() as net.AddressInfo).port
    try {
      const demo = new DemoRun(["--port", String(port)])
      expect(await demo.exited).toBe(2)
      expect(demo.output).toContain(`port ${port}`)
      expect(demo.output).toContain(`npm run demo -- --port ${port + 1}`)
      expect(demo.output).not.toMatch(/PostgreSQL\s/)
    } finally {
      busy.close()
    }
  })

  it("names the step that failed and stops", async () => {
    const closed = net.createServer()
    const port = await new Promise<number>((resolve) =>
      closed.listen(0, "127.0.0.1", () => resolve((closed.address() as net.AddressInfo).port))
    )
    await new Promise((resolve) => closed.close(resolve))
    const demo = new DemoRun([], { DATABASE_URL: `postgres://postgres:secret@localhost:${port}/postgres` })
    expect(await demo.exited).toBe(1)
    expect(demo.output).toMatch(/PostgreSQL failed: .*ECONNREFUSED/)
    expect(demo.output).not.toContain("secret")
  })

  it("stops everything it started and removes its data on Ctrl-C halfway through", async () => {
    const demo = new DemoRun([])
    // PostgreSQL and the simulator are up; the plugin is being installed into a new store.
    await demo.waitFor(/Build and pack the plugin/)
    const started = demo.descendants()
    const dataDirs = started.map(postgresDataDir).filter((dir): dir is string => Boolean(dir))
    expect(dataDirs).toHaveLength(1)
    // This demo's own folder, by the pid it wrote there: other demos (other test files) may be
    // creating and removing theirs at the same time.
    const stores = storesOf(demo.pid)
    expect(stores).toHaveLength(1)
    expect(await demo.interrupt()).toBe(130)
    expect(demo.output).toMatch(/Stop everything and remove the demo's data/)
    expect(stillRunning(started)).toEqual([])
    expect(fs.existsSync(stores[0])).toBe(false)
    expect(storesOf(demo.pid)).toEqual([])
    expect(fs.existsSync(path.dirname(dataDirs[0]))).toBe(false)
  })
})

/** The store folders under .demo/ that the demo with this pid wrote (each holds its demo's pid). */
function storesOf(pid: number): string[] {
  if (!fs.existsSync(STORES)) return []
  return fs
    .readdirSync(STORES)
    .map((name) => path.join(STORES, name))
    .filter((dir) => {
      try {
        return fs.readFileSync(path.join(dir, "demo.pid"), "utf8").trim() === String(pid)
      } catch {
        return false
      }
    })
}

/** The data folder of a PostgreSQL server process (its `-D` argument), if `pid` is one. */
function postgresDataDir(pid: number): string | undefined {
  try {
    const args = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")
    return path.basename(args[0]) === "postgres" && args.includes("-D") ? args[args.indexOf("-D") + 1] : undefined
  } catch {
    return undefined
  }
}
