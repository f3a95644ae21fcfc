import { LOCK_TTL_ENV } from "../lock-lease"
import { STALE_PENDING_ENV, stalePendingMs } from "../reconciliation"

describe("how long a record stays pending before reconciliation takes it to be in doubt", () => {
  afterEach(() => {
    delete process.env[STALE_PENDING_ENV]
    delete process.env[LOCK_TTL_ENV]
  })

  it("is five minutes unless configured", () => {
    expect(stalePendingMs()).toBe(300_000)
    process.env[STALE_PENDING_ENV] = "600"
    expect(stalePendingMs()).toBe(600_000)
    process.env[STALE_PENDING_ENV] = "not a number"
    expect(stalePendingMs()).toBe(300_000)
  })

  it("is never shorter than the payment lock's lease, under which a capture may still be running", () => {
    process.env[STALE_PENDING_ENV] = "30"
    expect(stalePendingMs()).toBe(120_000)
    process.env[LOCK_TTL_ENV] = "400"
    expect(stalePendingMs()).toBe(400_000)
  })
})
