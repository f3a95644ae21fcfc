import { freePort } from "../../test-support/free-port"

/**
 * Chooses the port of the Medusa app a test file boots, before the runner boots it: the lender's
 * callback and return URLs (the provider's backendUrl) must name it. Call at the top of the file,
 * before medusaIntegrationTestRunner, so this beforeAll runs first.
 */
export function useAppPort(): { readonly port: number; readonly url: string } {
  const app = { port: 0, url: "" }
  beforeAll(async () => {
    app.port = await freePort()
    app.url = `http://localhost:${app.port}`
    process.env.PORT = String(app.port)
    process.env.PAYBRIGHT_BACKEND_URL = app.url
  })
  return app
}
