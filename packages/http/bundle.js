/**
 * Bundles the server (`dist/bin.js`, built by `tsc -b`) into one ESM file, `dist/server.bundle.js`,
 * the file `npm start` runs: Node then compiles one file instead of resolving, reading and linking
 * the hundreds of modules of `effect` and `@effect/*`, which took most of the start-up.
 *
 *   node packages/http/bundle.js
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
const bundleFile = fileURLToPath(new URL("server.bundle.js", dist))

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
        const { javascript } = await import(pathToFileURL(args.path).href)
        if (typeof javascript !== "string") {
          throw new Error(
            `${args.path} no longer exports Scalar's script as javascript`
          )
        }
        replace(fileURLToPath(new URL(scalarFile, dist)), (file) => writeFileSync(file, javascript))
        scalarWritten = true
        return {
          contents: `import { readFileSync } from "node:fs"
export const javascript = readFileSync(new URL("./${scalarFile}", import.meta.url), "utf8")`
        }
      }
    )
  }
}

await esbuild.build({
  entryPoints: [fileURLToPath(new URL("bin.js", dist))],
  outfile: `${bundleFile}.tmp`,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node22",
  external: ["better-sqlite3", "pg-native"],
  // The CommonJS packages inside (pg, ws, …) require Node's built-ins; an ES module has no `require`.
  banner: {
    js: `import { createRequire as bundleRequire } from "node:module"; const require = bundleRequire(import.meta.url);`
  },
  plugins: [scalarAsFile],
  logLevel: "warning"
})

renameSync(`${bundleFile}.tmp`, bundleFile)

if (!scalarWritten) {
  throw new Error("Scalar's script was not found in @effect/platform: update the scalar-as-file plugin")
}
