const swc = ["@swc/jest", { jsc: { parser: { syntax: "typescript", decorators: true }, target: "es2021" } }]

const shared = {
  transform: { "^.+\\.[jt]s$": swc },
  testEnvironment: "node",
  moduleFileExtensions: ["js", "ts", "json"],
  modulePathIgnorePatterns: ["<rootDir>/.medusa/", "<rootDir>/dist/"],
}
const integration = { ...shared, setupFiles: ["<rootDir>/integration-tests/setup.js"] }

/**
 * Unit tests sit beside their code; integration tests boot a whole Medusa app per file (suites
 * that share one are `*.suite.ts`, run by a spec through onOneApp). `npm test`
 * runs the first two projects; the Redis suite needs a redis-server and runs on its own
 * (`npm run test:redis`); the walks (`npm run walks`) run with the plugin's source instrumented.
 */
module.exports = {
  // Longest first on a fresh clone too, where jest has not timed the files yet.
  testSequencer: "<rootDir>/scripts/test-sequencer.js",
  projects: [
    {
      ...shared,
      displayName: "unit",
      testMatch: ["<rootDir>/src/**/__tests__/**/*.spec.ts", "<rootDir>/test-support/**/__tests__/**/*.spec.ts"],
    },
    {
      ...integration,
      displayName: "integration",
      testMatch: ["<rootDir>/integration-tests/**/*.spec.ts"],
      testPathIgnorePatterns: [
        "/node_modules/",
        "<rootDir>/integration-tests/redis/",
        "<rootDir>/integration-tests/walks/",
      ],
    },
    { ...integration, displayName: "redis", testMatch: ["<rootDir>/integration-tests/redis/**/*.spec.ts"] },
    {
      ...integration,
      displayName: "walks",
      transform: { "^.+\\.[jt]s$": "<rootDir>/scripts/walks/instrument.js" },
      testMatch: ["<rootDir>/integration-tests/walks/**/*.spec.ts"],
    },
  ],
}
