import { spawn, type ChildProcess } from "node:child_process"
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import net from "node:net"
import { freePort } from "./free-port"

export type TestRedis = {
  url: string
  /** Shuts the server down as an operator does (its append-only file saved) and starts it again on the same port. */
  restart(): Promise<void>
  stop(): Promise<void>
}

/**
 * The Redis the Redis and scale suites run against: `REDIS_URL` when it names one (which the suite
 * then cannot restart), else a throwaway redis-server (Debian's package) on a free loopback port.
 * It keeps an append-only file, as a production Redis behind queues does, so a restart loses no job.
 */
export async function startRedis(): Promise<TestRedis> {
  if (process.env.REDIS_URL) {
    const url = process.env.REDIS_URL
    return {
      url,
      restart: async () => {
        throw new Error(
          `cannot restart the Redis at REDIS_URL (${url}); unset REDIS_URL to let the suite start its own`
        )
      },
      stop: async () => {},
    }
  }
  const binary = ["/usr/bin/redis-server", "/usr/local/bin/redis-server"].find((candidate) => fs.existsSync(candidate))
  if (!binary) {
    throw new Error(
      "The Redis suite needs a Redis server: set REDIS_URL to one, or install redis-server (apt-get install redis-server). `npm test` does not need it."
    )
  }
  const port = await freePort()
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "paybright-redis-"))
  const launch = async () => {
    const child: ChildProcess = spawn(
      binary,
      ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "yes", "--dir", dir],
      { stdio: "ignore" }
    )
    for (let i = 0; i < 100 && !(await listening(port)); i++) {
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    return child
  }
  let child = await launch()
  return {
    url: `redis://127.0.0.1:${port}`,
    restart: async () => {
      await shutDown(child)
      child = await launch()
    },
    stop: async () => {
      await shutDown(child)
      fs.rmSync(dir, { recursive: true, force: true })
    },
  }
}

function listening(port: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const socket = net.connect(port, "127.0.0.1", () => (socket.end(), resolve(true)))
    socket.on("error", () => resolve(false))
  })
}

/** SIGTERM (Redis saves and exits), SIGKILL past 3 s. */
async function shutDown(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((resolve) => child.once("exit", resolve))
  child.kill("SIGTERM")
  let timer: NodeJS.Timeout | undefined
  // Past the deadline, kill it; the timer must not keep Jest alive once redis has exited.
  await Promise.race([exited, new Promise((resolve) => (timer = setTimeout(resolve, 3000)))])
  clearTimeout(timer)
  child.kill("SIGKILL")
}
