/**
 * Picks the store from a database URL: `sqlite:<file>`, `sqlite::memory:` or `postgres://…`.
 */
import { PgStore } from "@wms/sql-pg"
import { SqliteStore } from "@wms/sql-sqlite"
import { Layer } from "effect"

/** The store layer for a database URL; throws on a URL of no known kind. */
export const fromUrl = (url: string) => {
  if (url.startsWith("sqlite:")) return SqliteStore.layer({ filename: url.slice("sqlite:".length) })
  if (url.startsWith("postgres://") || url.startsWith("postgresql://")) return PgStore.layer({ url })
  return Layer.die(
    new Error(`WMS_DATABASE_URL must start with sqlite: or postgres:// (got ${url.split(":")[0]}:…)`)
  )
}
