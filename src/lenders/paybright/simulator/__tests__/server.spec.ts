import { spawn } from "node:child_process"
import http from "node:http"
import type { AddressInfo } from "node:net"
import path from "node:path"
import { startSimulator, SIMULATOR_TEST_ACCOUNT, type Simulator } from ".."
import { applicationFields } from "../../../../../test-support/simulator-application"
import { basicAuth, callbackReceiver, postForm, sleep } from "./helpers"

describe("simulator: server", () => {
  let simulator: Simulator

  beforeAll(async () => {
    simulator = await startSimulator()
  })
  afterAll(() => simulator.close())

  it("serves an index naming the endpoints and the test credential", async () => {
    const index = await fetch(`${simulator.url}/`)
    expect(index.status).toBe(200)
    const html = await index.text()
    for (const shown of [
      "/CheckOut/ApplicationForm.aspx",
      "/api/vcn/pan",
      "/capture/",
      "/refund/",
      "/_simulator/",
      SIMULATOR_TEST_ACCOUNT.apiKey,
      SIMULATOR_TEST_ACCOUNT.apiToken,
      simulator.url,
    ]) {
      expect(html).toContain(shown)
    }
    expect(html).toMatch(/simulator-only test credentials/)
  })

  it("serves a stand-in for PayBright's promotional widget script, which draws what it was loaded with", async () => {
    const response = await fetch(`${simulator.url}/dist/sdk.js?public_key=pk_demo&financedamount=%24514.99`)
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toMatch(/javascript/)
    const containers = [{ text: "", attributes: {} as Record<string, string> }]
    const page = {
      window: {} as { pb_prequalify_init?: (options: { lang: string }) => void },
      document: {
        querySelectorAll: () =>
          containers.map((container) => ({
            set textContent(text: string) {
              container.text = text
            },
            setAttribute: (name: string, value: string) => (container.attributes[name] = value),
          })),
      },
    }
    new Function("window", "document", await response.text())(page.window, page.document)
    page.window.pb_prequalify_init!({ lang: "fr" })
    expect(containers[0].text).toBe("Widget PayBright (simulateur) : financez 514.99 $ · pk_demo")
    expect(containers[0].attributes["data-simulator-widget"]).toBe("ready")
  })

  it("answers 404 for unknown paths, 405 for a wrong method, 400 for a malformed path", async () => {
    expect((await fetch(`${simulator.url}/api/v3/anything`)).status).toBe(404)
    const get = await fetch(`${simulator.url}/CheckOut/ApplicationForm.aspx`)
    expect(get.status).toBe(405)
    expect(get.headers.get("allow")).toBe("POST")
    expect((await fetch(`${simulator.url}/api/v2/instore/1/capture/`)).status).toBe(405)
    expect((await fetch(`${simulator.url}/api/vcn/pan`, { method: "POST" })).status).toBe(405)
    expect((await fetch(`${simulator.url}/api/v2/instore/%E0/capture/`, { method: "POST" })).status).toBe(400)
  })

  it("refuses bodies over 100 kB with 413, in HTML for the browser and JSON for the API", async () => {
    const huge = "x".repeat(101 * 1024)
    const form = await postForm(`${simulator.url}/CheckOut/ApplicationForm.aspx`, {
      ...applicationFields("1.00", "ref-huge"),
      x_description: huge,
    })
    expect(form.status).toBe(413)
    expect(form.headers.get("content-type")).toMatch(/text\/html/)
    const api = await fetch(`${simulator.url}/api/v2/instore/1/capture/`, {
      method: "POST",
      headers: {
        ...basicAuth(SIMULATOR_TEST_ACCOUNT.apiKey, SIMULATOR_TEST_ACCOUNT.apiToken),
        "content-type": "application/json",
      },
      body: JSON.stringify({ padding: huge }),
    })
    expect(api.status).toBe(413)
    expect(await api.json()).toEqual({ message: expect.stringMatching(/100 kB/) })
  })

  it("stops calling back once closed, and closes promptly with a keep-alive client connected", async () => {
    const store = await callbackReceiver([500])
    const closing = await startSimulator({ decision: "approve", callback: { delayMs: 100 } })
    const agent = new http.Agent({ keepAlive: true })
    await new Promise<void>((resolve) =>
      http.get(`${closing.url}/`, { agent }, (res) => res.resume().on("end", resolve))
    )
    await postForm(`${closing.url}/CheckOut/ApplicationForm.aspx`, applicationFields("5.00", "ref-closed", store.url))
    const started = Date.now()
    await closing.close()
    expect(Date.now() - started).toBeLessThan(1000)
    await sleep(200)
    expect(store.received).toHaveLength(0)
    agent.destroy()
    await store.close()
  })

  describe("npm run simulator", () => {
    const root = path.resolve(__dirname, "../../../../..")
    const run = (env: Record<string, string>) =>
      spawn(
        path.join(root, "node_modules/.bin/ts-node"),
        ["--transpile-only", "src/lenders/paybright/simulator/main.ts"],
        {
          cwd: root,
          env: { ...process.env, ...env },
          stdio: ["ignore", "pipe", "pipe"],
        }
      )
    const output = (child: ReturnType<typeof run>) => {
      const text = { out: "", err: "" }
      child.stdout!.on("data", (chunk) => (text.out += chunk))
      child.stderr!.on("data", (chunk) => (text.err += chunk))
      return text
    }
    const exit = (child: ReturnType<typeof run>) =>
      new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)))

    it("prints what to configure, serves, and stops cleanly on Ctrl-C", async () => {
      const child = run({ PAYBRIGHT_SIMULATOR_PORT: "0", PAYBRIGHT_SIMULATOR_DECISION: "approve" })
      const text = output(child)
      const exited = exit(child)
      const deadline = Date.now() + 15_000
      while (!/listening on (http:\S+)/.test(text.out) && Date.now() < deadline && child.exitCode === null)
        await sleep(50)
      const url = /listening on (http:\S+)/.exec(text.out)?.[1]
      expect(url).toBeDefined()
      expect(text.out).toContain(`checkoutUrl: "${url}"`)
      expect(text.out).toContain(`apiUrl:      "${url}"`)
      expect(text.out).toContain(SIMULATOR_TEST_ACCOUNT.apiKey)
      expect(text.out).toContain(SIMULATOR_TEST_ACCOUNT.apiToken)
      expect((await fetch(`${url}/`)).status).toBe(200)
      child.kill("SIGINT")
      expect(await exited).toBe(0)
    }, 20_000)

    it("names the port in use and what to do, and exits 1", async () => {
      const blocker = http.createServer()
      await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve))
      const port = (blocker.address() as AddressInfo).port
      const child = run({ PAYBRIGHT_SIMULATOR_PORT: String(port) })
      const text = output(child)
      expect(await exit(child)).toBe(1)
      expect(text.err).toContain(`Port ${port}`)
      expect(text.err).toContain("PAYBRIGHT_SIMULATOR_PORT=")
      blocker.close()
    }, 20_000)
  })
})
