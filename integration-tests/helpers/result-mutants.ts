import fc from "fast-check"
import { sign } from "../../src/lenders/paybright/signing"

/** A delivery of a result as raw form/query text: what the lender (or an attacker) puts on the wire. */
export type Mutant = { description: string; body: string }

type Pair = [string, string]

const encode = (pairs: Pair[]) =>
  pairs.map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`).join("&")

/**
 * Mutations of a genuine signed result: values, names, case, added and removed fields, duplicated
 * keys, encodings, request-only fields (re-signed with the real key, as a replayed request would
 * be), and other sessions' results and requests. Each is raw text, so encodings and duplicates
 * reach the server as a client would send them.
 */
export function resultMutants(
  genuine: Record<string, string>,
  others: { result: Record<string, string>; request: Record<string, string> },
  apiToken: string
): fc.Arbitrary<Mutant> {
  const pairs = Object.entries(genuine) as Pair[]
  const names = pairs.map(([name]) => name)
  const index = fc.integer({ min: 0, max: pairs.length - 1 })
  const text = fc.string({ minLength: 0, maxLength: 12, unit: "grapheme" })
  const replaceAt = (at: number, pair: Pair | undefined) =>
    pairs.flatMap((existing, i) => (i === at ? (pair ? [pair] : []) : [existing]))

  const value = fc
    .tuple(
      index,
      fc.oneof(
        text,
        fc.constantFrom("", " ", "0", "1.00", "COMPLETED", "completed", "Failed", "true", "false", "CAD", "USD")
      )
    )
    .map(([at, replacement]) => ({
      description: `value of ${names[at]} -> ${JSON.stringify(replacement)}`,
      body: encode(replaceAt(at, [names[at], replacement])),
    }))
  const tweak = fc.tuple(index, fc.constantFrom("upper", "lower", "space", "append0", "trim1")).map(([at, how]) => {
    const [name, original] = pairs[at]
    const changed =
      how === "upper"
        ? original.toUpperCase()
        : how === "lower"
          ? original.toLowerCase()
          : how === "space"
            ? ` ${original}`
            : how === "append0"
              ? `${original}0`
              : original.slice(0, -1)
    return { description: `${how} ${name}`, body: encode(replaceAt(at, [name, changed])) }
  })
  const rename = fc.tuple(index, fc.constantFrom("upper", "prefix", "suffix", "drop-x")).map(([at, how]) => {
    const [name, original] = pairs[at]
    const renamed =
      how === "upper"
        ? name.toUpperCase()
        : how === "prefix"
          ? `x_${name}`
          : how === "suffix"
            ? `${name}_`
            : name.slice(2)
    return { description: `rename ${name} -> ${renamed}`, body: encode(replaceAt(at, [renamed, original])) }
  })
  const remove = index
    .filter((at) => names[at] !== "x_signature")
    .map((at) => ({ description: `remove ${names[at]}`, body: encode(replaceAt(at, undefined)) }))
  const add = fc
    .tuple(
      fc.stringMatching(/^x_[a-z_]{1,12}$/),
      text.filter((candidate) => candidate.length > 0)
    )
    .filter(([name]) => !names.includes(name))
    .map(([name, added]) => ({ description: `add ${name}`, body: encode([...pairs, [name, added]]) }))
  const requestOnly = fc
    .constantFrom(
      "x_url_callback",
      "x_url_complete",
      "x_url_cancel",
      "x_shop_name",
      "x_customer_email",
      "x_URL_callback"
    )
    .map((name) => {
      const fields = { ...genuine, [name]: "https://attacker.test/" }
      delete (fields as Record<string, string>).x_signature
      return {
        description: `re-signed with ${name}`,
        body: encode(Object.entries({ ...fields, x_signature: sign(fields, apiToken) })),
      }
    })
  const duplicate = fc.tuple(index, fc.boolean()).map(([at, same]) => {
    const [name, original] = pairs[at]
    return {
      description: `duplicate ${name} (${same ? "same" : "other"} value)`,
      body: encode([...pairs, [name, same ? original : `${original}1`]]),
    }
  })
  const encoding = fc.tuple(index, fc.constantFrom("double", "latin1", "plus", "nul", "newline")).map(([at, how]) => {
    const [name, original] = pairs[at]
    const raw = encode(replaceAt(at, undefined))
    const encoded =
      how === "double"
        ? encodeURIComponent(encodeURIComponent(`${original}%`))
        : how === "latin1"
          ? escape(`${original}é`)
          : how === "plus"
            ? `${encodeURIComponent(original)}+`
            : how === "nul"
              ? `${encodeURIComponent(original)}%00`
              : `${encodeURIComponent(original)}%0Ax_result%3Dcompleted`
    return { description: `${how} encoding of ${name}`, body: `${raw}&${encodeURIComponent(name)}=${encoded}` }
  })
  const signature = fc.integer({ min: 0, max: 63 }).map((at) => {
    const original = genuine.x_signature
    const flipped = original.slice(0, at) + (original[at] === "0" ? "1" : "0") + original.slice(at + 1)
    return { description: `signature digit ${at}`, body: encode(Object.entries({ ...genuine, x_signature: flipped })) }
  })
  const otherSession = fc
    .constantFrom<"reference" | "amount" | "request" | "swap-signature">(
      "reference",
      "amount",
      "request",
      "swap-signature"
    )
    .map((how) => {
      const fields =
        how === "reference"
          ? { ...others.result, x_reference: genuine.x_reference }
          : how === "amount"
            ? { ...genuine, x_amount: others.result.x_amount }
            : how === "request"
              ? { ...others.request, x_reference: genuine.x_reference }
              : { ...genuine, x_signature: others.result.x_signature }
      return { description: `other session's ${how}`, body: encode(Object.entries(fields)) }
    })

  return fc.oneof(value, tweak, rename, remove, add, requestOnly, duplicate, encoding, signature, otherSession)
}

/**
 * Whether a mutant says exactly what the genuine result says (the same x_ fields and values once
 * decoded, the signature in another case): such a text is the genuine result, not a mutant.
 */
export function sameAsGenuine(body: string, genuine: Record<string, string>): boolean {
  const decoded = new URLSearchParams(body)
  const names = [...decoded.keys()]
  if (new Set(names).size !== names.length) {
    return false
  }
  const fields = Object.fromEntries([...decoded].filter(([name]) => name.startsWith("x_")))
  const expected = Object.keys(genuine)
  return (
    Object.keys(fields).length === expected.length &&
    expected.every((name) =>
      name === "x_signature"
        ? fields[name]?.toLowerCase() === genuine[name].toLowerCase()
        : fields[name] === genuine[name]
    )
  )
}
