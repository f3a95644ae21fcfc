import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { chromium, type Browser } from "playwright-core"
import { withLock } from "./file-lock"

/** Flags for a headless Chromium on a machine with no network but loopback. */
const QUIET_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
]
/**
 * The npm package's flags (made for one-shot serverless runs) that do not fit a test: two would make
 * it less honest than a shopper's browser, and a single-process browser ends with its first page.
 */
const UNSUITED_FLAGS = new Set(["--disable-web-security", "--allow-running-insecure-content", "--single-process"])
const SYSTEM_CHROMIUM = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]

/**
 * Where the browser tests' Chromium is: `CHROMIUM_PATH` if set, else the system's, else the one
 * the `@sparticuz/chromium` npm package ships compressed (unpacked on first use), so a machine with
 * nothing but npm runs every browser test.
 */
export async function findChromium(): Promise<{ executablePath: string; args: string[]; source: string }> {
  const configured = process.env.CHROMIUM_PATH
  if (configured) {
    if (!fs.existsSync(configured)) {
      throw new Error(
        `CHROMIUM_PATH is ${configured}, which does not exist: unset it to use the npm package's Chromium`
      )
    }
    return { executablePath: configured, args: QUIET_FLAGS, source: "CHROMIUM_PATH" }
  }
  const system = SYSTEM_CHROMIUM.find((candidate) => fs.existsSync(candidate))
  if (system) {
    return { executablePath: system, args: QUIET_FLAGS, source: "system" }
  }
  const packaged = (await import("@sparticuz/chromium")).default
  const args = packaged.args.filter((flag) => !UNSUITED_FLAGS.has(flag))
  // The package unpacks into the temp folder when its binary is not there yet, and takes a binary
  // it finds there as whole: a second test file starting a browser meanwhile must wait for the first.
  const executablePath = await withLock(path.join(os.tmpdir(), "paybright-chromium.lock"), "unpacking Chromium", () =>
    packaged.executablePath()
  )
  return {
    executablePath,
    args: [...new Set([...args, ...QUIET_FLAGS])],
    source: "npm",
  }
}

/** A headless Chromium for a browser test, found as `findChromium` says. */
export async function launchChromium(): Promise<Browser> {
  const { executablePath, args } = await findChromium()
  return chromium.launch({ executablePath, args, headless: true })
}
