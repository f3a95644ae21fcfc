import type { z } from "zod"
import type { PayBrightSettingsCode, PayBrightSettingsFacts } from "./admin-types"

/** The facts of each sentence the options schema says, by the sentence. */
const factsBySentence = new Map<string, PayBrightSettingsFacts>()

/**
 * A sentence the options schema says of a wrong option, and its facts: the code and values the
 * admin writes it from in the merchant's language. The English stays the schema's own message, for
 * medusa-config.ts's boot error, API users and logs. One sentence always has the same facts.
 */
export function says(code: PayBrightSettingsCode, message: string, values: PayBrightSettingsFacts["values"] = {}) {
  const known = factsBySentence.get(message)
  if (known && JSON.stringify(known) !== JSON.stringify({ code, values })) {
    throw new Error(`The options schema says "${message}" with two codes: ${known.code} and ${code}`)
  }
  factsBySentence.set(message, { code, values })
  return message
}

export const atLeast = (min: number) => says("at_least", `must be at least ${min}`, { min })
export const atMost = (max: number) => says("at_most", `must be at most ${max}`, { max })

/**
 * A problem found while relating options (its values vary from one parse to the next): the facts
 * ride on the issue itself, as its params.
 */
export function relatedIssue(
  path: string[],
  code: PayBrightSettingsCode,
  message: string,
  values: PayBrightSettingsFacts["values"] = {}
) {
  return { code: "custom" as const, path, message, params: { facts: { code, values } } }
}

/** The facts of one issue of a parse: carried, said, or (a check with zod's own words) read from the issue. */
export function factsOfIssue(issue: z.core.$ZodIssue): PayBrightSettingsFacts {
  const carried = issue.code === "custom" ? (issue.params?.facts as PayBrightSettingsFacts | undefined) : undefined
  const said = carried ?? factsBySentence.get(issue.message)
  if (said) return said
  if (issue.code === "too_small" && issue.origin !== "string" && issue.origin !== "array") {
    return { code: "at_least", values: { min: Number(issue.minimum) } }
  }
  if (issue.code === "too_big" && issue.origin !== "string" && issue.origin !== "array") {
    return { code: "at_most", values: { max: Number(issue.maximum) } }
  }
  return { code: "invalid", values: {} }
}
