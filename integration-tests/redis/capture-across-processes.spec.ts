import { startRedis } from "../../test-support/redis"
import { captureRace } from "../http/capture-race.suite"
import { onOneApp } from "../helpers/one-app"

jest.setTimeout(180_000)

// The same race as the default store's, with Redis locks (`npm run test:redis`): needs a
// redis-server, see docs/developing.md. Before the app boots: medusa-config.ts picks the Redis
// locking provider when REDIS_URL is set.
let redis: Awaited<ReturnType<typeof startRedis>> | undefined
beforeAll(async () => {
  redis = await startRedis()
  process.env.REDIS_URL = redis.url
})

onOneApp({ decision: "approve", callback: { enabled: false } }, [captureRace("redis")])

// After the app's own shutdown (hooks run in the order declared): its Redis clients close first.
afterAll(async () => {
  await redis?.stop()
})
