import { existsSync, readdirSync, readFileSync, statSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"

/**
 * The plugin's folders from the bottom up, as docs/architecture.md draws them. A file
 * may import from its own folder and from folders below it, never from one above: the lender's
 * protocol knows nothing of Medusa, the data module nothing of the rules that use it, the rules
 * nothing of the workflows that run them, and only the entry points (the provider, routes, jobs,
 * subscribers, the admin) see everything.
 */
const LAYERS: string[][] = [
  ["lib/texts", "policies", "storefront"],
  ["lenders", "lenders/paybright", "lenders/paybright/simulator"],
  ["modules"],
  ["lib"],
  ["workflows"],
  ["views", "sweeps"],
  ["providers", "api", "jobs", "subscribers", "admin", "scripts"],
]

const SRC = resolve(__dirname, "..")
const ROOT = resolve(SRC, "..")

/**
 * The repository's own folders, bottom up: the plugin; what tests, the demo and the bench share;
 * the repository's scripts; the demo; the bench; the tests, with the unit tests that sit beside
 * the code in src/.
 */
const REPOSITORY_LAYERS = ["src", "test-support", "scripts", "demo", "bench", "tests"]

/** The file an import names: the module itself, or its folder's index. */
function fileOf(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier)
  return [`${base}.ts`, `${base}.tsx`, join(base, "index.ts"), join(base, "index.tsx")].find((path) => existsSync(path))
}

/** The groups of files that import one another round in a circle (Tarjan's strongly connected components). */
function cyclesOf(graph: Map<string, string[]>): string[][] {
  let next = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const cycles: string[][] = []
  const visit = (file: string) => {
    index.set(file, next)
    low.set(file, next++)
    stack.push(file)
    onStack.add(file)
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target)
        low.set(file, Math.min(low.get(file)!, low.get(target)!))
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file)!, index.get(target)!))
      }
    }
    if (low.get(file) !== index.get(file)) return
    const group: string[] = []
    let member: string
    do {
      member = stack.pop()!
      onStack.delete(member)
      group.push(relative(SRC, member))
    } while (member !== file)
    if (group.length > 1) cycles.push(group.sort())
  }
  for (const file of graph.keys()) if (!index.has(file)) visit(file)
  return cycles
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return name === "__tests__" ? [] : sourceFiles(path)
    return /\.tsx?$/.test(name) ? [path] : []
  })
}

/** Every script and source file under a folder of the repository. */
function repositoryFiles(dir: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return name === "node_modules" ? [] : repositoryFiles(path)
    return /\.(tsx?|m?js)$/.test(name) ? [path] : []
  })
}

/** The most precise entry of LAYERS a file (or an import's target) falls under. */
function placeOf(path: string): string {
  const file = relative(SRC, path).replace(/\.tsx?$/, "")
  const places = LAYERS.flat().filter((place) => file === place || file.startsWith(`${place}/`))
  return places.sort((a, b) => b.length - a.length)[0] ?? file.split("/")[0]
}

function layerOf(place: string): number {
  const layer = LAYERS.findIndex((places) => places.includes(place))
  if (layer < 0) throw new Error(`src/${place} is in no layer: add it to LAYERS and to the map in docs/architecture.md`)
  return layer
}

describe("layers", () => {
  const imports = sourceFiles(SRC).flatMap((file) =>
    [...readFileSync(file, "utf8").matchAll(/from\s+["'](\.{1,2}\/[^"']+)["']/g)].map((match) => ({
      file: relative(SRC, file),
      from: placeOf(file),
      to: placeOf(resolve(dirname(file), match[1])),
    }))
  )

  it("places every folder of src/ in a layer", () => {
    const places = new Set(sourceFiles(SRC).map(placeOf))
    expect([...places].filter((place) => !LAYERS.flat().includes(place))).toEqual([])
  })

  it("never imports from a higher layer", () => {
    const upward = imports
      .filter(({ from, to }) => from !== to && layerOf(to) > layerOf(from))
      .map(({ file, to }) => `${file} imports from src/${to}`)
    expect(upward).toEqual([])
  })

  it("has no import cycles", () => {
    const files = sourceFiles(SRC)
    const graph = new Map(
      files.map((file) => [
        file,
        [...readFileSync(file, "utf8").matchAll(/(?:from|import)\s+["'](\.{1,2}\/[^"']+)["']/g)]
          .map((match) => fileOf(file, match[1]))
          .filter((target): target is string => target !== undefined),
      ])
    )
    expect(cyclesOf(graph)).toEqual([])
  })

  it("never imports from a higher folder of the repository", () => {
    const folderOf = (path: string) => {
      const file = relative(ROOT, path)
      return /(^|\/)__tests__\/|^integration-tests\//.test(file) ? "tests" : file.split("/")[0]
    }
    const upward = REPOSITORY_LAYERS.filter((folder) => folder !== "tests")
      .flatMap((folder) => repositoryFiles(join(ROOT, folder)))
      .concat(repositoryFiles(join(ROOT, "integration-tests")))
      .flatMap((file) =>
        [...readFileSync(file, "utf8").matchAll(/(?:from|import|require)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g)]
          .map((match) => resolve(dirname(file), match[1]))
          .filter((target) => {
            const [from, to] = [folderOf(file), folderOf(target)]
            return REPOSITORY_LAYERS.includes(to) && REPOSITORY_LAYERS.indexOf(to) > REPOSITORY_LAYERS.indexOf(from)
          })
          .map((target) => `${relative(ROOT, file)} imports ${relative(ROOT, target)}`)
      )
    expect(upward).toEqual([])
  })

  it("reads a real tree", () => {
    // The walk above proves nothing if it found no imports.
    expect(imports.length).toBeGreaterThan(300)
  })
})
