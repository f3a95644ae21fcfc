/**
 * Looks for a virtual card's secrets in everything a run left behind: a full dump of the
 * database, every log line, every HTTP response. The PAN is searched as digits anywhere (also
 * with spaces or dashes); the CVV, being three digits that occur by chance in any ID or amount,
 * is searched as the value of any card-security field and next to the PAN.
 */
export type Transcript = { logs: string[]; responses: string[] }

/**
 * Tees every line the app's logger, the console and stdout/stderr write into `logs`, still
 * printing it. The app's logger is wrapped itself: it may hold a console from an earlier file.
 * While recording, the logger emits every level, debug included, whatever LOG_LEVEL the test
 * command chose: a line must be written to be searched. Outside, the run stays as quiet as it asked.
 */
export function recordLogs(transcript: Transcript, logger?: object): () => void {
  // Medusa's logger, its methods replaced by recording ones and put back by the function answered.
  const appLogger = logger as Record<string, unknown> | undefined
  const restore: (() => void)[] = []
  const levels = logger as Partial<{ setLogLevel(level: string): void; unsetLogLevel(): void }> | undefined
  if (levels?.setLogLevel && levels.unsetLogLevel) {
    levels.setLogLevel("debug")
    restore.push(() => levels.unsetLogLevel!())
  }
  for (const method of [
    "info",
    "warn",
    "error",
    "debug",
    "log",
    "activity",
    "progress",
    "success",
    "failure",
    "panic",
  ]) {
    const original = appLogger?.[method]
    if (typeof original === "function") {
      appLogger![method] = (...args: unknown[]) => {
        transcript.logs.push(args.map((arg) => (typeof arg === "string" ? arg : JSON.stringify(arg))).join(" "))
        return original.apply(appLogger, args)
      }
      restore.push(() => (appLogger![method] = original))
    }
  }
  for (const method of ["log", "info", "warn", "error", "debug"] as const) {
    const original = console[method]
    console[method] = (...args: unknown[]) => {
      transcript.logs.push(args.map((arg) => (typeof arg === "string" ? arg : JSON.stringify(arg))).join(" "))
      original.apply(console, args)
    }
    restore.push(() => (console[method] = original))
  }
  for (const stream of [process.stdout, process.stderr]) {
    const original = stream.write.bind(stream)
    stream.write = ((chunk: unknown, ...rest: unknown[]) => {
      transcript.logs.push(String(chunk))
      return (original as (...args: unknown[]) => boolean)(chunk, ...rest)
    }) as typeof stream.write
    restore.push(() => (stream.write = original as typeof stream.write))
  }
  return () => restore.forEach((undo) => undo())
}

/** Every row of every table in the public schema, as text. */
export async function dumpDatabase(db: {
  raw(sql: string): Promise<{ rows: Record<string, unknown>[] }>
}): Promise<string> {
  const { rows: tables } = await db.raw(
    "select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'"
  )
  const parts: string[] = []
  for (const { table_name } of tables) {
    const { rows } = await db.raw(`select * from "${String(table_name).replace(/"/g, '""')}"`)
    parts.push(`${table_name}: ${JSON.stringify(rows)}`)
  }
  return parts.join("\n")
}

export function findCardData(haystacks: Record<string, string>, card: { pan: string; cvv: string }): string[] {
  const pan = new RegExp(card.pan.split("").join("[ -]?"))
  const cvvField = new RegExp(`"?(cvv|cvc|cvv2|security_code)"?\\s*[:=]\\s*"?0*${Number(card.cvv)}\\b`, "i")
  const found: string[] = []
  for (const [where, text] of Object.entries(haystacks)) {
    if (pan.test(text)) found.push(`the card number in ${where}`)
    if (cvvField.test(text) || text.includes(`${card.pan.slice(-4)}${card.cvv}`))
      found.push(`the security code in ${where}`)
    if (/"(pan|cvv)"\s*:/i.test(text)) found.push(`a pan/cvv field in ${where}`)
  }
  return found
}
