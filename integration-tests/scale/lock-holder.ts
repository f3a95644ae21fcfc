import { execFile } from "node:child_process"
import { promisify } from "node:util"
import { paymentLockKey } from "../../src/lib/payment-lock"

const run = promisify(execFile)

/**
 * Who holds a payment's lock in the suite's Redis (Medusa's locking-redis keys), and for how long
 * still: what explains a capture that keeps waiting. A TTL of -1 is a lease that never ends.
 */
export async function paymentLockHolder(redisUrl: string, paymentId: string): Promise<string> {
  const key = `medusa_lock:${paymentLockKey(paymentId)}`
  try {
    const [owner, ttl] = await Promise.all([redisCli(redisUrl, "GET", key), redisCli(redisUrl, "TTL", key)])
    return owner ? `lock held by ${owner}, TTL ${ttl} s` : "lock free"
  } catch (error) {
    return `lock unknown: ${(error as Error).message}`
  }
}

async function redisCli(url: string, ...args: string[]): Promise<string> {
  const { stdout } = await run("redis-cli", ["-u", url, "--raw", ...args], { timeout: 5000 })
  return stdout.trim()
}
