/**
 * Bundles the server (`dist/bin.js`, built by `tsc -b`) into one ESM file, `dist/server.bundle.js`,
 * the file `npm start` runs: Node then compiles one file instead of resolving, reading and linking
 * the hundreds of modules of `effect` and `@effect/*`, which took most of the start-up.
 *
 *   node packages/http/bundle.js
 *
 * The `wms` command (`dist/cli/bin.js`) is bundled alike into `dist/cli.bundle.js`, which `npm run
 * wms` and the command's tests run: a command starts in a third of the time.
 *
 * Both stores are inside: `Store.ts` imports each by its name as written, which esbuild follows,
 * and runs the one the database URL names. better-sqlite3 (a native addon) and pg-native
 * (optional, not installed) stay external and are loaded from node_modules. Scalar's script (3.3 MB, the `/docs` page) is written beside the bundle
 * as `server.bundle.scalar.js` and read as text at start: as a string literal in the bundle, V8
 * scans it at every start. Both files are written beside and renamed into place, so a server
 * starting meanwhile (tests spawn the bundle while `npm start` rebuilds it) reads a whole file.
 */
import * as esbuild from "esbuild"
import { renameSync, writeFileSync } from "node:fs"
import { fileURLToPath, pathToFileURL } from "node:url"

const dist = new URL("dist/", import.meta.url)
const scalarFile = "server.bundle.scalar.js"

/** Writes `file` whole or not at all: readers see the old file until the rename. */
const replace = (file, write) => {
  write(`${file}.tmp`)
  renameSync(`${file}.tmp`, file)
}

let scalarWritten = false
const scalarAsFile = {
  name: "scalar-as-file",
  setup(build) {
    build.onLoad(
      { filter: /[\\/]@effect[\\/]platform[\\/]dist[\\/]esm[\\/]internal[\\/]httpApiScalar\.js$/ },
      async (args) => {
        // Both bundles load the script: it is written once.
        if (!scalarWritten) {
          scalarWritten = true
          const { javascript } = await import(pathToFileURL(args.path).href)
          if (typeof javascript !== "string") {
            throw new Error(
              `${args.path} no longer exports Scalar's script as javascript`
            )
          }
          replace(fileURLToPath(new URL(scalarFile, dist)), (file) => writeFileSync(file, javascript))
        }
        return {
          contents: `import { readFileSync } from "node:fs"
export const javascript = readFileSync(new URL("./${scalarFile}", import.meta.url), "utf8")`
        }
      }
    )
  }
}

/** Bundles the module `entry` of `dist/` into `dist/<file>`, written beside and renamed into place. */
const bundle = async (entry, file) => {
  const outfile = fileURLToPath(new URL(file, dist))
  await esbuild.build({
    entryPoints: [fileURLToPath(new URL(entry, dist))],
    outfile: `${outfile}.tmp`,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node22",
    external: ["better-sqlite3", "pg-native"],
    // The CommonJS packages inside (pg, ws, …) require Node's built-ins; an ES module has no `require`.
    banner: {
      js:
        `import { createRequire as bundleRequire } from "node:module"; const require = bundleRequire(import.meta.url);`
    },
    plugins: [scalarAsFile],
    logLevel: "warning"
  })
  renameSync(`${outfile}.tmp`, outfile)
}

await Promise.all([bundle("bin.js", "server.bundle.js"), bundle("cli/bin.js", "cli.bundle.js")])

if (!scalarWritten) {
  throw new Error("Scalar's script was not found in @effect/platform: update the scalar-as-file plugin")
}
