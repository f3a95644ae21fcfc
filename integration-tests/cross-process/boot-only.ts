import type { ExecArgs } from "@medusajs/framework/types"

/** Run with `medusa exec`: the store boots (its providers' options are checked), and nothing more. */
export default async function bootOnly(_: ExecArgs) {
  process.stdout.write("booted\n")
}
