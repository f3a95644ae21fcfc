import path from "node:path"
import { build, type Plugin } from "esbuild"

const PACKAGE = /^medusa-payment-paybright(\/|$)/

/**
 * The demo shop's browser code, bundled at start: `medusa-payment-paybright/storefront` (and
 * `/storefront/react`) are resolved in the demo store's node_modules, from the package the demo
 * packed and installed, as a storefront installs it; React comes from this project.
 */
export async function bundleShop(storeDir: string): Promise<string> {
  const installedPackage: Plugin = {
    name: "installed-package",
    setup(build) {
      build.onResolve({ filter: PACKAGE }, (args) =>
        args.pluginData === "installed"
          ? undefined
          : build.resolve(args.path, { kind: args.kind, resolveDir: storeDir, pluginData: "installed" })
      )
    },
  }
  const result = await build({
    entryPoints: [path.join(__dirname, "shop.tsx")],
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
    target: "es2020",
    jsx: "automatic",
    define: { "process.env.NODE_ENV": '"production"' },
    plugins: [installedPackage],
    logLevel: "silent",
  })
  return result.outputFiles[0].text
}
