/**
 * SQLite store of the warehouse engine.
 */
// First: @wms/core checks the version of effect before the other modules run.
import "@wms/core"
export * as SqliteStore from "./SqliteStore.js"
