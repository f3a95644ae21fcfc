import { readdirSync, readFileSync, statSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"

const ROOT = resolve(__dirname, "../..")

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(join(ROOT, path)).isDirectory()) return name === "node_modules" ? [] : sourceFiles(path)
    return /\.tsx?$/.test(name) ? [path] : []
  })
}

/** Where each relative import of the files under `dir` leads, as a path from the repository's root. */
function importsUnder(dir: string): { file: string; target: string }[] {
  return sourceFiles(dir).flatMap((file) =>
    [...readFileSync(join(ROOT, file), "utf8").matchAll(/(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g)].map(
      (match) => ({ file, target: relative(ROOT, resolve(ROOT, dirname(file), match[1])) })
    )
  )
}

/**
 * Test code has three homes (docs/developing.md, "Where tests go"): unit tests beside their code,
 * jest-only helpers in integration-tests/helpers/, and what tests, the demo and the bench share in
 * test-support/. The shared home depends on none of its users.
 */
describe("test homes", () => {
  it("test-support/ imports nothing from the demo, the bench or the integration suites", () => {
    const upward = importsUnder("test-support").filter(({ target }) =>
      ["demo/", "bench/", "integration-tests/"].some((home) => target.startsWith(home))
    )
    expect(upward).toEqual([])
  })

  it("what runs outside jest (the demo, the bench, the scale suite) never imports jest-only helpers", () => {
    const jestOnly = ["demo", "bench", "integration-tests/scale"]
      .flatMap(importsUnder)
      .filter(({ target }) => target.startsWith("integration-tests/helpers/"))
    expect(jestOnly).toEqual([])
  })

  it("reads real trees", () => {
    expect(importsUnder("test-support").length).toBeGreaterThan(20)
    expect(importsUnder("demo").length).toBeGreaterThan(20)
  })
})
