/**
 * PostgreSQL store of the warehouse engine.
 */
// First: @wms/core checks the versions of Node.js and effect before the other modules run.
import "@wms/core"
export * as PgStore from "./PgStore.js"
