/**
 * PostgreSQL store of the warehouse engine.
 */
export * as PgStore from "./PgStore.js"
