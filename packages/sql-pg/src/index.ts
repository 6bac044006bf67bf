/**
 * PostgreSQL store of the warehouse engine.
 */
export * as PgStore from "./PgStore.js"
export * as PgPool from "./PgPool.js"
