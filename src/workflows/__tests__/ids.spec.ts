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
 * written in the call, or in the `…StepId` / `…WorkflowId` constant its file exports for it.
 */
const made = sourceFiles(WORKFLOWS).flatMap((file) =>
  [
    ...readFileSync(file, "utf8").matchAll(
      /create(Step|Workflow)\(\s*"([^"]+)"|export const \w+(Step|Workflow)Id\s*=\s*"([^"]+)"/g
    ),
  ].map((match) => ({
    kind: (match[1] ?? match[3]) as "Step" | "Workflow",
    id: match[2] ?? match[4],
    file: relative(WORKFLOWS, file),
  }))
)

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

  it("live one workflow to a file, under workflows/, and steps under steps/", () => {
    const files = made.filter(({ kind }) => kind === "Workflow").map(({ file }) => file)
    expect(files.filter((file, index) => files.indexOf(file) !== index)).toEqual([])
    expect(made.filter(({ kind, file }) => !file.includes(kind === "Step" ? "/steps/" : "/workflows/"))).toEqual([])
  })
})
