import { spawn, type ChildProcess } from "node:child_process"
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import net from "node:net"
import { freePort } from "./free-port"

/**
 * The Redis the Redis suite runs against: `REDIS_URL` when it names one, else a throwaway
 * redis-server (Debian's package) on a free loopback port.
 */
export async function startRedis(): Promise<{ url: string; stop(): Promise<void> }> {
  if (process.env.REDIS_URL) {
    return { url: process.env.REDIS_URL, stop: async () => {} }
  }
  const binary = ["/usr/bin/redis-server", "/usr/local/bin/redis-server"].find((candidate) => fs.existsSync(candidate))
  if (!binary) {
    throw new Error(
      "The Redis suite needs a Redis server: set REDIS_URL to one, or install redis-server (apt-get install redis-server). `npm test` does not need it."
    )
  }
  const port = await freePort()
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "paybright-redis-"))
  const child: ChildProcess = spawn(
    binary,
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir],
    { stdio: "ignore" }
  )
  for (let i = 0; i < 100; i++) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, "127.0.0.1", () => (socket.end(), resolve(true)))
      socket.on("error", () => resolve(false))
    })
    if (up) break
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve))
        child.kill("SIGTERM")
        let timer: NodeJS.Timeout | undefined
        // Past the deadline, kill it; the timer must not keep Jest alive once redis has exited.
        await Promise.race([exited, new Promise((resolve) => (timer = setTimeout(resolve, 3000)))])
        clearTimeout(timer)
        child.kill("SIGKILL")
      }
      fs.rmSync(dir, { recursive: true, force: true })
    },
  }
}
