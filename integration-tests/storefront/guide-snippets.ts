import fs from "node:fs"
import path from "node:path"

export const GUIDE = path.resolve(__dirname, "../../docs/storefront/dtc-starter.md")

/** A code block of the guide that names its file: a whole new file (ts, tsx) or a change to one (diff). */
export type GuideBlock = { language: string; file: string; code: string }

/** Every ```lang file=path block of the guide, in order. */
export function guideBlocks(markdown = fs.readFileSync(GUIDE, "utf8")): GuideBlock[] {
  return [...markdown.matchAll(/^```(\w+) file=(\S+)\n([\s\S]*?)^```$/gm)].map(([, language, file, code]) => ({
    language,
    file,
    code,
  }))
}

/**
 * The kit's imports a diff adds, as statements ("import { a, b } from "medusa-payment-paybright/…""):
 * the added lines of each import, joined, for a compiler to check the names exist.
 */
export function kitImportsAdded(diff: string): string[] {
  const added = diff
    .split("\n")
    .filter((line) => line.startsWith("+"))
    .map((line) => line.slice(1))
    .join("\n")
  return [...added.matchAll(/import\s+(?:type\s+)?\{[^}]*\}\s+from\s+"medusa-payment-paybright\/[^"]+"/g)].map(
    ([statement]) => statement
  )
}
