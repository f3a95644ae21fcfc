import { startSimulator, SIMULATOR_TEST_ACCOUNT, type Simulator } from "./index"

/**
 * `npm run simulator`: the lender simulator for storefront development, on a fixed port.
 * Environment: PAYBRIGHT_SIMULATOR_PORT (4010), PAYBRIGHT_SIMULATOR_HOST (127.0.0.1),
 * PAYBRIGHT_SIMULATOR_DECISION (ask | approve | decline).
 */
async function main(): Promise<number> {
  const port = Number(process.env.PAYBRIGHT_SIMULATOR_PORT || 4010)
  const host = process.env.PAYBRIGHT_SIMULATOR_HOST || "127.0.0.1"
  const decision = process.env.PAYBRIGHT_SIMULATOR_DECISION || "ask"
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(
      `PAYBRIGHT_SIMULATOR_PORT must be a port number (0-65535), not "${process.env.PAYBRIGHT_SIMULATOR_PORT}".`
    )
    return 1
  }
  if (decision !== "ask" && decision !== "approve" && decision !== "decline") {
    console.error(`PAYBRIGHT_SIMULATOR_DECISION must be ask, approve or decline, not "${decision}".`)
    return 1
  }

  let simulator: Simulator
  try {
    simulator = await startSimulator({
      port,
      host,
      decision,
      logger: { info: (message) => console.log(`  ${message}`), warn: (message) => console.warn(`  ${message}`) },
    })
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === "EADDRINUSE") {
      console.error(
        `Port ${port} on ${host} is already in use (another simulator still running?). ` +
          `Stop what runs there, or pick another port: PAYBRIGHT_SIMULATOR_PORT=${port + 1} npm run simulator`
      )
      return 1
    }
    if (code === "EACCES" || code === "EADDRNOTAVAIL") {
      console.error(
        `Cannot listen on ${host}:${port} (${code}). Set PAYBRIGHT_SIMULATOR_HOST and PAYBRIGHT_SIMULATOR_PORT to an address this machine can use.`
      )
      return 1
    }
    throw error
  }

  console.log(`PayBright simulator listening on ${simulator.url}

  Provider options (medusa-config):
    checkoutUrl: "${simulator.checkoutUrl}"
    apiUrl:      "${simulator.apiUrl}"
    apiKey:      "${SIMULATOR_TEST_ACCOUNT.apiKey}"
    apiToken:    "${SIMULATOR_TEST_ACCOUNT.apiToken}"
  (simulator-only test credentials, not PayBright's)

  Applications: ${decision === "ask" ? "a page with Approve / Decline / Leave" : `decided at once: ${decision}`} (PAYBRIGHT_SIMULATOR_DECISION)
  Endpoints and control API: ${simulator.url}/
Ctrl-C stops it.
`)

  let stopping = false
  const stop = (signal: string) => {
    if (stopping) process.exit(130)
    stopping = true
    console.log(`\n${signal}: stopping the simulator`)
    void simulator.close().then(() => process.exit(0))
  }
  process.on("SIGINT", () => stop("SIGINT"))
  process.on("SIGTERM", () => stop("SIGTERM"))
  return 0
}

main().then(
  (code) => {
    if (code !== 0) process.exit(code)
  },
  (error: unknown) => {
    console.error("The PayBright simulator failed to start:", error)
    process.exit(1)
  }
)
