import { captureRaceSuite } from "../helpers/capture-race-suite"

jest.setTimeout(180_000)

// The same race with Redis locks (`npm run test:redis`): needs a redis-server, see docs/developing.md.
captureRaceSuite("redis")
