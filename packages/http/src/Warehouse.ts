/**
 * The engine without a server: the warehouse services on the store a database URL names. This is
 * the entry point for applications that embed the engine.
 */
import { Administration } from "@wms/core"
import { Layer } from "effect"
import * as NodePasswordHasher from "./NodePasswordHasher.js"
import * as Store from "./Store.js"

export interface WarehouseOptions {
  /** `sqlite:<file>`, `sqlite::memory:` or a `postgres://` URL. */
  readonly database: string
}

/**
 * The warehouse services on a migrated store. The store's ports and its `SqlClient` are part of
 * the output, so an application may run its own queries in the same transactions.
 */
export const layer = (options: WarehouseOptions) =>
  Administration.Default.pipe(
    Layer.provideMerge(NodePasswordHasher.layer),
    Layer.provideMerge(Store.fromUrl(options.database))
  )
