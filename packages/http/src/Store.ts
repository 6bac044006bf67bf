/**
 * Picks the store from a database URL: `sqlite:<file>`, `sqlite::memory:` or `postgres://…`, and
 * loads its package then. Each store is an optional peer dependency of `@wms/http`, so that an
 * application installs only the one it uses (better-sqlite3 or pg, not both); the bundled server
 * has both inside.
 */
import type { SqlClient } from "@effect/sql"
import type { Transactor } from "@wms/core"
import type { repositories } from "@wms/sql"
import { Effect, Layer } from "effect"

/** What every store gives: the core's ports on a migrated database, and its `SqlClient`. */
type StorePorts = Layer.Layer.Success<typeof repositories> | Transactor | SqlClient.SqlClient

/**
 * The part of each store package used here, by name; written out rather than taken from the
 * packages' types, so that the types of `@wms/http` never name a store that may not be installed.
 */
export interface StorePackages {
  readonly "@wms/sql-sqlite": {
    readonly SqliteStore: { readonly layer: (options: { readonly filename: string }) => Layer.Layer<StorePorts> }
  }
  readonly "@wms/sql-pg": {
    readonly PgStore: { readonly layer: (options: { readonly url: string }) => Layer.Layer<StorePorts> }
  }
}

/** Loads a store package, as `import()` does. */
export type ImportStore = <Name extends keyof StorePackages>(name: Name) => Promise<StorePackages[Name]>

// Each import names its package as written, so that esbuild puts both stores in the server's bundle.
const importers: { readonly [Name in keyof StorePackages]: () => Promise<StorePackages[Name]> } = {
  "@wms/sql-sqlite": () => import("@wms/sql-sqlite"),
  "@wms/sql-pg": () => import("@wms/sql-pg")
}

const importStore: ImportStore = (name) => importers[name]()

const databases: { readonly [Name in keyof StorePackages]: string } = {
  "@wms/sql-sqlite": "a SQLite",
  "@wms/sql-pg": "a PostgreSQL"
}

/** Whether `error` is Node's failure to find the package `name` itself (not one it imports). */
const isMissing = (error: unknown, name: string) =>
  error instanceof Error && (error as { code?: unknown }).code === "ERR_MODULE_NOT_FOUND" &&
  error.message.includes(`'${name}'`)

/** The store package `name`; a defect that says how to install it when it is missing. */
const load = <Name extends keyof StorePackages>(name: Name, importer: ImportStore) =>
  Effect.tryPromise({
    try: () => importer(name),
    catch: (error) =>
      isMissing(error, name)
        ? new Error(
          `WMS_DATABASE_URL names ${databases[name]} database, but ${name} is not installed: npm install ${name}`
        )
        : error
  }).pipe(Effect.orDie)

/**
 * The store layer for a database URL, its package loaded when the layer is built; dies on a URL of
 * no known kind or a store that is not installed. `importer` is for tests.
 */
export const fromUrl = (url: string, importer: ImportStore = importStore): Layer.Layer<StorePorts> => {
  if (url.startsWith("sqlite:")) {
    return Layer.unwrapEffect(
      Effect.map(
        load("@wms/sql-sqlite", importer),
        ({ SqliteStore }) => SqliteStore.layer({ filename: url.slice("sqlite:".length) })
      )
    )
  }
  if (url.startsWith("postgres://") || url.startsWith("postgresql://")) {
    return Layer.unwrapEffect(Effect.map(load("@wms/sql-pg", importer), ({ PgStore }) => PgStore.layer({ url })))
  }
  return Layer.die(
    new Error(`WMS_DATABASE_URL must start with sqlite: or postgres:// (got ${url.split(":")[0]}:…)`)
  )
}
