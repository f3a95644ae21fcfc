const swc = ["@swc/jest", { jsc: { parser: { syntax: "typescript", decorators: true }, target: "es2021" } }]

const shared = {
  transform: { "^.+\\.[jt]s$": swc },
  testEnvironment: "node",
  moduleFileExtensions: ["js", "ts", "json"],
  modulePathIgnorePatterns: ["<rootDir>/.medusa/", "<rootDir>/dist/"],
}

/** Unit tests sit beside their code; integration tests boot a whole Medusa app per file. */
module.exports = {
  projects: [
    {
      ...shared,
      displayName: "unit",
      testMatch: ["<rootDir>/src/**/__tests__/**/*.spec.ts", "<rootDir>/test-support/**/__tests__/**/*.spec.ts"],
    },
    {
      ...shared,
      displayName: "integration",
      testMatch: ["<rootDir>/integration-tests/**/*.spec.ts"],
      setupFiles: ["<rootDir>/integration-tests/setup.js"],
    },
  ],
}
