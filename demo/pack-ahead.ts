import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { stopAll } from "./processes"
import { packPlugin } from "./store"

/**
 * Builds and packs the plugin into PAYBRIGHT_PACK_CACHE before any test asks for it: `npm test`
 * starts this while it migrates its template database, which keeps one core busy and leaves the
 * other free. The demo and packaging tests then find the tarball kept, or wait on the build's lock
 * while this finishes it.
 */
async function main() {
  if (!process.env.PAYBRIGHT_PACK_CACHE) throw new Error("PAYBRIGHT_PACK_CACHE names no folder to keep the tarball in")
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "paybright-pack-ahead-"))
  try {
    await packPlugin(scratch)
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true })
  }
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => void stopAll().finally(() => process.exit(1)))
}
main().catch((error) => {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
})
