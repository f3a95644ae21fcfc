import fs from "node:fs"

/**
 * Hands `text` to another process through `file`. Written beside it and renamed into place, so the
 * reader, which waits for the file to exist, never reads it while it is still empty.
 */
export function signal(file: string, text: string) {
  fs.writeFileSync(`${file}.partial`, text)
  fs.renameSync(`${file}.partial`, file)
}

/** Waits for `file` (written by `signal`) and answers its text. */
export async function awaitSignal(file: string, pollMs = 5): Promise<string> {
  while (!fs.existsSync(file)) {
    await new Promise((resolve) => setTimeout(resolve, pollMs))
  }
  return fs.readFileSync(file, "utf8")
}
