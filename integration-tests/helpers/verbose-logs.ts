import { logger } from "@medusajs/framework/logger"

// Imported first by suites that inspect log lines: every level must be emitted to be checked,
// whatever LOG_LEVEL the test command chose for the others.
process.env.LOG_LEVEL = "debug"
;(logger as unknown as { setLogLevel(level: string): void }).setLogLevel("debug")
