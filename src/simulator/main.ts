import { startSimulator, SIMULATOR_TEST_ACCOUNT } from "./server"

/** `npm run simulator`: the lender simulator for storefront development, on a fixed port. */
async function main() {
  const port = Number(process.env.PAYBRIGHT_SIMULATOR_PORT ?? 4010)
  const host = process.env.PAYBRIGHT_SIMULATOR_HOST ?? "127.0.0.1"
  const decision = (process.env.PAYBRIGHT_SIMULATOR_DECISION ?? "ask") as "ask" | "approve" | "decline"
  try {
    const simulator = await startSimulator({ port, host, decision })
    console.log(`PayBright simulator listening on ${simulator.url}
  provider options:  apiUrl: "${simulator.apiUrl}", checkoutUrl: "${simulator.checkoutUrl}"
  test account:      apiKey: "${SIMULATOR_TEST_ACCOUNT.apiKey}", apiToken: "${SIMULATOR_TEST_ACCOUNT.apiToken}" (simulator only)
  applications:      ${decision === "ask" ? "a page with Approve / Decline / Leave" : `decided at once: ${decision}`}
Ctrl-C stops it.`)
    const stop = async () => {
      await simulator.close()
      process.exit(0)
    }
    process.on("SIGINT", stop)
    process.on("SIGTERM", stop)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EADDRINUSE") {
      console.error(`Port ${port} is already in use. Stop what runs there, or pick another: PAYBRIGHT_SIMULATOR_PORT=4011 npm run simulator`)
      process.exit(1)
    }
    throw error
  }
}

void main()
