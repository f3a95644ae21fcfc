// Imported first by suites that inspect log lines: every level must be emitted to be checked.
process.env.LOG_LEVEL = "debug"
export {}
