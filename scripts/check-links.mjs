#!/usr/bin/env node
import { execFileSync } from "node:child_process"
import fs from "node:fs"
import path from "node:path"
import { fileURLToPath } from "node:url"

/**
 * Part of `npm run lint`: every relative link of the repository's Markdown (README.md, docs/, …)
 * leads to a file that exists, and every anchor (`#…`, in the same page or another) to a heading
 * of that page, as GitHub makes its anchors. Links to the web are not followed.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
const pages = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "*.md"], { cwd: root })
  .toString()
  .split("\n")
  .filter(Boolean)

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(file) {
  const seen = new Map()
  const anchors = new Set()
  let fenced = false
  for (const line of fs.readFileSync(file, "utf8").split("\n")) {
    if (line.startsWith("```")) fenced = !fenced
    const heading = !fenced && /^#{1,6}\s+(.*)$/.exec(line)
    if (!heading) continue
    const base = heading[1]
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-")
    const count = seen.get(base) ?? 0
    seen.set(base, count + 1)
    anchors.add(count ? `${base}-${count}` : base)
  }
  return anchors
}

const problems = []
for (const page of pages) {
  const file = path.join(root, page)
  if (!fs.existsSync(file)) continue
  let fenced = false
  fs.readFileSync(file, "utf8")
    .split("\n")
    .forEach((line, index) => {
      if (line.startsWith("```")) fenced = !fenced
      if (fenced) return
      for (const [, target] of line.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue
        const [pathPart, anchor] = target.split("#")
        const linked = pathPart ? path.resolve(path.dirname(file), decodeURIComponent(pathPart)) : file
        const where = `${page}:${index + 1}`
        if (!fs.existsSync(linked)) {
          problems.push(`${where}: ${target} leads to no file`)
        } else if (anchor && linked.endsWith(".md") && !anchorsOf(linked).has(anchor)) {
          problems.push(`${where}: ${target} names no heading of ${path.relative(root, linked)}`)
        }
      }
    })
}
for (const problem of problems) console.error(problem)
if (problems.length) {
  console.error(`${problems.length} broken link(s) in the Markdown pages`)
  process.exit(1)
}
console.log(`links checked in ${pages.length} Markdown pages: all lead somewhere`)
