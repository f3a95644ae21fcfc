import fs from "node:fs"
import path from "node:path"
import { runCommand } from "../../demo/processes"
import { createStoreFolder, installBuiltPlugin } from "../../demo/store"
import { guideBlocks, kitImportsAdded } from "./guide-snippets"

jest.setTimeout(300_000)

const ROOT = path.resolve(__dirname, "../..")
const STOREFRONT = "apps/storefront/"
/** A whole new TypeScript file (the other blocks are diffs, or environment files). */
const isNewFile = (block: { language: string }) => block.language === "ts" || block.language === "tsx"

/**
 * docs/storefront/dtc-starter.md against the storefront kit as a storefront gets it: the plugin
 * built and packed, installed from its tarball, resolved as the starter's tsconfig resolves
 * packages (moduleResolution "node": the types come through `typesVersions`). Every new file the
 * guide shows is type-checked whole, and every import a change adds from the kit. The starter's
 * SDK client and payment-method list keep their real types; its other modules (@lib/*, @modules/*,
 * next/*) are stubbed as `any`, so the kit's side is what is held to account.
 */
describe("the dtc-starter guide's code, type-checked against the packed storefront kit", () => {
  let dir: string
  let output: string

  beforeAll(async () => {
    dir = createStoreFolder()
    await installBuiltPlugin(dir)
    const blocks = storefrontBlocks()
    const write = (file: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true })
      fs.writeFileSync(path.join(dir, file), text)
    }
    blocks.filter(isNewFile).forEach((block) => write(block.file, block.code))
    blocks
      .filter((block) => block.language === "diff")
      .forEach((block, index) => write(`changes/${index}.ts`, `${kitImportsAdded(block.code).join("\n")}\nexport {}\n`))
    // Proves the kit is really typed here (an unknown name is an error, not an `any`).
    write(
      "control/unknown-export.ts",
      'import { notAKitExport } from "medusa-payment-paybright/storefront"\nexport { notAKitExport }\n'
    )
    // The starter's signatures the guide's code relies on, typed as the starter declares them.
    write("src/lib/config.ts", 'import type Medusa from "@medusajs/js-sdk"\nexport declare const sdk: Medusa\n')
    write(
      "src/lib/data/payment.ts",
      'import type { HttpTypes } from "@medusajs/types"\n' +
        "export declare function listCartPaymentMethods(regionId: string): Promise<HttpTypes.StorePaymentProvider[] | null>\n"
    )
    write(
      "starter-stubs.d.ts",
      '// The starter\'s own modules, absent here.\ndeclare module "@lib/*"\ndeclare module "@modules/*"\ndeclare module "next/*"\n' +
        "// Next.js adds its cache options to fetch's.\ninterface RequestInit { next?: { revalidate?: number | false; tags?: string[] } }\n"
    )
    write(
      "tsconfig.json",
      JSON.stringify({
        compilerOptions: {
          // The starter's settings that decide how the kit is found and checked.
          target: "es2020",
          lib: ["dom", "dom.iterable", "esnext"],
          strict: true,
          noEmit: true,
          esModuleInterop: true,
          module: "esnext",
          moduleResolution: "node",
          jsx: "preserve",
          isolatedModules: true,
          skipLibCheck: true,
          baseUrl: "./src",
          paths: { "@lib/*": ["lib/*"], "@modules/*": ["modules/*"] },
          types: [],
        },
        include: ["src/**/*", "changes/**/*", "control/**/*", "starter-stubs.d.ts"],
      })
    )
    output = await runCommand(
      process.execPath,
      [path.join(ROOT, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.json", "--pretty", "false"],
      { cwd: dir, label: "tsc" }
    ).catch((error: Error) => error.message)
  })

  /** The guide's blocks for the storefront app, with paths from the app's root as its tsconfig sees them. */
  function storefrontBlocks() {
    return guideBlocks()
      .filter((block) => block.file.startsWith(STOREFRONT))
      .map((block) => ({ ...block, file: block.file.slice(STOREFRONT.length) }))
  }

  afterAll(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true })
  })

  it("shows every file the guide adds and every kit import it changes in", () => {
    expect(guideBlocks().map((block) => block.file.split("/").slice(0, 2).join("/"))).toEqual(
      expect.arrayContaining(["apps/backend", "apps/storefront"])
    )
    const blocks = storefrontBlocks()
    expect(blocks.filter(isNewFile).map((block) => block.file)).toEqual([
      "src/lib/data/paybright.ts",
      "src/modules/checkout/components/paybright/index.tsx",
      "src/app/[countryCode]/paybright/return/route.ts",
      "src/modules/common/components/paybright-financing/index.tsx",
    ])
    const diffs = blocks.filter((block) => block.language === "diff")
    expect(diffs.map((block) => block.file)).toHaveLength(9)
    expect(diffs.flatMap((block) => kitImportsAdded(block.code))).toHaveLength(4)
  })

  it("compiles with nothing wrong but the control's unknown name", () => {
    const errors = output.split("\n").filter((line) => /error TS\d+/.test(line))
    expect(errors).toEqual([
      expect.stringMatching(/^control\/unknown-export\.ts.*has no exported member 'notAKitExport'/),
    ])
  })
})
