import { readdirSync, readFileSync, statSync } from "node:fs"
import { join, relative, resolve } from "node:path"

const WORKFLOWS = resolve(__dirname, "..")

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return name === "__tests__" ? [] : sourceFiles(path)
    return name.endsWith(".ts") ? [path] : []
  })
}

/**
 * Every createStep and createWorkflow of the plugin, with its id and where it is made: the id
 * written in the call, or the constant of the same file it names (`export const xStepId = "…"`).
 */
const made = sourceFiles(WORKFLOWS).flatMap((file) => {
  const text = readFileSync(file, "utf8")
  const constants = new Map([...text.matchAll(/const (\w+) = "([^"]+)"/g)].map((match) => [match[1], match[2]]))
  return [...text.matchAll(/create(Step|Workflow)\(\s*(?:"([^"]+)"|(\w+)\s*,)/g)].map((match) => ({
    kind: match[1] as "Step" | "Workflow",
    id: match[2] ?? constants.get(match[3]) ?? `unresolved ${match[3]}`,
    file: relative(WORKFLOWS, file),
  }))
})

describe("workflow and step ids", () => {
  it("finds the plugin's workflows", () => {
    expect(made.filter(({ kind }) => kind === "Workflow").length).toBeGreaterThan(15)
  })

  // Medusa keeps steps and workflows in one registry by id: a shared id is one of them replaced.
  it("never share an id", () => {
    const ids = made.map(({ id }) => id)
    expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([])
  })

  it("say what they are", () => {
    const misnamed = made.filter(
      ({ kind, id }) => !id.startsWith("paybright-") || !id.endsWith(`-${kind.toLowerCase()}`)
    )
    expect(misnamed).toEqual([])
  })

  it("live one workflow to a file in workflows/, and steps in workflows/steps/", () => {
    const files = made.filter(({ kind }) => kind === "Workflow").map(({ file }) => file)
    expect(files.filter((file, index) => files.indexOf(file) !== index)).toEqual([])
    const misplaced = made.filter(({ kind, file }) =>
      kind === "Step" ? !/^steps\/[^/]+$/.test(file) : file.includes("/")
    )
    expect(misplaced).toEqual([])
  })
})
