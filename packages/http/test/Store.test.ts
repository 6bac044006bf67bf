/**
 * The store a database URL names is loaded when the server starts, and only that one: each store
 * is an optional peer dependency of `@wms/http`, and a missing one says how to install it.
 */
import { assert, describe, it } from "@effect/vitest"
import { Cause, Effect, Exit, Layer } from "effect"
import { readFileSync } from "node:fs"
import * as Store from "../src/Store.js"

/** Node's failure to import a package that is not installed. */
const notFound = (name: string) =>
  Object.assign(new Error(`Cannot find package '${name}' imported from /app/node_modules/@wms/http/dist/Store.js`), {
    code: "ERR_MODULE_NOT_FOUND"
  })

/** An importer that fails with `error` and records what it was asked for. */
const failingImporter = (error: (name: string) => unknown) => {
  const asked: Array<string> = []
  const importer: Store.ImportStore = (name) => {
    asked.push(name)
    return Promise.reject(error(name))
  }
  return { importer, asked }
}

/** The defect building `layer` dies with. */
const defectOf = <A>(layer: Layer.Layer<A>) =>
  Effect.map(Effect.exit(Effect.scoped(Layer.build(layer))), (exit) => {
    assert.isTrue(Exit.isFailure(exit))
    return Exit.isFailure(exit) ? Cause.squash(exit.cause) : undefined
  })

describe("the store of a database URL", () => {
  it.effect("a PostgreSQL URL without @wms/sql-pg installed says to install it, and asks for no other store", () =>
    Effect.gen(function*() {
      const { asked, importer } = failingImporter(notFound)
      const defect = yield* defectOf(Store.fromUrl("postgres://postgres@127.0.0.1:5432/wms", importer))
      assert.strictEqual(
        (defect as Error).message,
        "WMS_DATABASE_URL names a PostgreSQL database, but @wms/sql-pg is not installed: npm install @wms/sql-pg"
      )
      assert.deepStrictEqual(asked, ["@wms/sql-pg"])
    }))

  it.effect("a SQLite URL without @wms/sql-sqlite installed says to install it, and asks for no other store", () =>
    Effect.gen(function*() {
      const { asked, importer } = failingImporter(notFound)
      const defect = yield* defectOf(Store.fromUrl("sqlite:./data/wms.db", importer))
      assert.strictEqual(
        (defect as Error).message,
        "WMS_DATABASE_URL names a SQLite database, but @wms/sql-sqlite is not installed: npm install @wms/sql-sqlite"
      )
      assert.deepStrictEqual(asked, ["@wms/sql-sqlite"])
    }))

  it.effect("any other failure to load a store, such as a package the store needs, is reported as it is", () =>
    Effect.gen(function*() {
      const missingPg = notFound("pg")
      const defect = yield* defectOf(
        Store.fromUrl("postgresql://postgres@127.0.0.1/wms", failingImporter(() => missingPg).importer)
      )
      assert.strictEqual(defect, missingPg)
      const broken = new Error("The module was compiled against a different Node.js version")
      assert.strictEqual(
        yield* defectOf(Store.fromUrl("sqlite::memory:", failingImporter(() => broken).importer)),
        broken
      )
    }))

  it.effect("a URL of no known kind names what it got, without loading a store", () =>
    Effect.gen(function*() {
      const { asked, importer } = failingImporter(notFound)
      const defect = yield* defectOf(Store.fromUrl("mysql://localhost/wms", importer))
      assert.strictEqual(
        (defect as Error).message,
        "WMS_DATABASE_URL must start with sqlite: or postgres:// (got mysql:…)"
      )
      assert.deepStrictEqual(asked, [])
    }))

  it("@wms/http installs no store: both are optional peer dependencies", () => {
    const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"))
    for (const store of ["@wms/sql-sqlite", "@wms/sql-pg"]) {
      assert.notProperty(manifest.dependencies, store)
      assert.strictEqual(manifest.peerDependencies[store], manifest.version)
      assert.deepStrictEqual(manifest.peerDependenciesMeta[store], { optional: true })
    }
    assert.notProperty(manifest.dependencies, "better-sqlite3")
    assert.notProperty(manifest.dependencies, "pg")
  })
})
