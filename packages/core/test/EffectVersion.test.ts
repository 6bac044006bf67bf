/**
 * The check of effect's version at import: the rule on version strings, the running copy, and an
 * application whose effect is a 3.21 or a 4 importing the built `@wms/core` (`npm run build`).
 */
import { assert, describe, it } from "@effect/vitest"
import { effectVersionProblem, supportedEffect } from "@wms/core"
import { Effect, ModuleVersion } from "effect"
import { spawnSync } from "node:child_process"
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("../../../", import.meta.url))
const require = createRequire(import.meta.url)

describe("the version of effect", () => {
  it("effect 3 from 3.22 on passes; another effect gets a message naming both versions", () => {
    for (const version of ["3.22.0", "3.22.4", "3.40.1", "3.22.0-snapshot"]) {
      assert.isUndefined(effectVersionProblem(version), version)
    }
    for (const version of ["4.1.0", "4.0.0-beta.3", "3.21.9", "3.0.0", "2.4.19"]) {
      const problem = effectVersionProblem(version)
      assert.include(problem, `needs effect ^3.22.0`, version)
      assert.include(problem, `effect ${version} is loaded`, version)
    }
  })

  it("a version that cannot be read is not checked", () => {
    for (const version of [undefined, null, "", "latest", "3", 3.22]) assert.isUndefined(effectVersionProblem(version))
  })

  it("the running effect passes, and its version is its package.json's", () => {
    assert.strictEqual(ModuleVersion.getCurrentVersion(), require("effect/package.json").version)
    assert.isUndefined(effectVersionProblem(ModuleVersion.getCurrentVersion()))
  })

  it("the supported range is every package's peer range", () => {
    for (const name of ["core", "sql", "sql-sqlite", "sql-pg", "http"]) {
      const manifest = JSON.parse(readFileSync(join(root, "packages", name, "package.json"), "utf8"))
      assert.strictEqual(manifest.peerDependencies.effect, supportedEffect, name)
    }
  })
})

/**
 * An application folder with the built `@wms/core`, `effect` as `makeEffect` lays it out and the
 * workspace's other packages, all linked, so that Node (with `--preserve-symlinks`) resolves
 * `effect` to the folder's own.
 */
const application = (makeEffect: (folder: string) => void) =>
  Effect.acquireRelease(
    Effect.sync(() => {
      const folder = mkdtempSync(join(tmpdir(), "wms-effect-version-"))
      const modules = join(folder, "node_modules")
      mkdirSync(join(modules, "@wms"), { recursive: true })
      for (const name of readdirSync(join(root, "node_modules"))) {
        if (name !== "effect" && name !== "@wms") symlinkSync(join(root, "node_modules", name), join(modules, name))
      }
      symlinkSync(join(root, "packages", "core"), join(modules, "@wms", "core"))
      makeEffect(join(modules, "effect"))
      writeFileSync(join(folder, "app.mjs"), "import { Orders } from \"@wms/core\"\nconsole.log(typeof Orders)\n")
      return folder
    }),
    (folder) => Effect.sync(() => rmSync(folder, { recursive: true, force: true }))
  )

const run = (folder: string) => {
  const result = spawnSync(process.execPath, ["--preserve-symlinks", "app.mjs"], { cwd: folder, encoding: "utf8" })
  return { status: result.status, output: result.stdout + result.stderr }
}

/** `from` linked into `to` entry by entry, but for the way down `path` to the one file that `rewrite` changes. */
const linkAllBut = (from: string, to: string, path: ReadonlyArray<string>, rewrite: (text: string) => string) => {
  mkdirSync(to, { recursive: true })
  for (const name of readdirSync(from)) {
    if (name !== path[0]) symlinkSync(join(from, name), join(to, name))
    else if (path.length === 1) writeFileSync(join(to, name), rewrite(readFileSync(join(from, name), "utf8")))
    else linkAllBut(join(from, name), join(to, name), path.slice(1), rewrite)
  }
}

/** The installed effect 3 with its version set to `version`. */
const effect3As = (version: string) => (target: string) =>
  linkAllBut(
    dirname(require.resolve("effect/package.json")),
    target,
    ["dist", "esm", "internal", "version.js"],
    (text) => text.replace(/"3\.\d+\.\d+"/, JSON.stringify(version))
  )

/** An effect 4 as far as the engine's imports see it: the root module without effect 3's `ModuleVersion`. */
const effect4 = (target: string) => {
  mkdirSync(target, { recursive: true })
  const manifest = { name: "effect", version: "4.1.0", type: "module", exports: { ".": "./index.js" } }
  writeFileSync(join(target, "package.json"), JSON.stringify(manifest))
  writeFileSync(join(target, "index.js"), "export * as Version from \"./Version.js\"\n")
  writeFileSync(join(target, "Version.js"), "export const getCurrentVersion = () => \"4.1.0\"\n")
}

describe("importing @wms/core", () => {
  it.effect("with effect 3.21 fails at once, saying which effect is needed", () =>
    Effect.gen(function*() {
      const folder = yield* application(effect3As("3.21.0"))
      const { status, output } = run(folder)
      assert.notStrictEqual(status, 0, output)
      assert.include(output, "needs effect ^3.22.0 (3.22 or a later 3.x), but effect 3.21.0 is loaded")
    }).pipe(Effect.scoped), { timeout: 30_000 })

  it.effect("with effect 3.22 loads", () =>
    Effect.gen(function*() {
      const folder = yield* application(effect3As("3.22.9"))
      assert.deepStrictEqual(run(folder), { status: 0, output: "function\n" })
    }).pipe(Effect.scoped), { timeout: 30_000 })

  it.effect(
    "with effect 4 fails while Node links the modules, on the line that says which effect is needed",
    () =>
      Effect.gen(function*() {
        const folder = yield* application(effect4)
        const { status, output } = run(folder)
        assert.notStrictEqual(status, 0, output)
        assert.include(output, "EffectVersion.js")
        assert.include(output, "the engine needs effect ^3.22.0 (npm install effect@3)")
      }).pipe(Effect.scoped),
    { timeout: 30_000 }
  )
})
