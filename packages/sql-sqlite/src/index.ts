/**
 * SQLite store of the warehouse engine.
 */
export * as SqliteStore from "./SqliteStore.js"
