import { captureRaceSuite } from "../helpers/capture-race-suite"

jest.setTimeout(180_000)

// Cross-process locks through the store's own PostgreSQL: nothing but npm needed.
captureRaceSuite("postgres")
