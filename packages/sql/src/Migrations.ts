/**
 * The schema of the store, one migration per key, written once for both dialects. Keys must
 * match `^\d+_.+` or the migrator skips them; a record (not the file system) survives bundling.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

const foundation = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // Site ids and client ids share one namespace: the `site` header may hold either.
  yield* sql`CREATE TABLE scope_keys (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('site', 'client'))
  )`
  yield* sql`CREATE TABLE sites (
    site_id TEXT PRIMARY KEY REFERENCES scope_keys (id),
    name TEXT NOT NULL,
    fulfillment INTEGER NOT NULL CHECK (fulfillment IN (0, 1))
  )`
  yield* sql`CREATE TABLE clients (
    client_id TEXT PRIMARY KEY REFERENCES scope_keys (id),
    site_id TEXT NOT NULL REFERENCES sites (site_id),
    name TEXT NOT NULL
  )`
  yield* sql`CREATE INDEX clients_site ON clients (site_id)`
  yield* sql`CREATE TABLE users (
    user_id TEXT PRIMARY KEY,
    email TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    name TEXT NOT NULL,
    admin INTEGER NOT NULL CHECK (admin IN (0, 1)),
    site_id TEXT NOT NULL REFERENCES sites (site_id),
    client_id TEXT REFERENCES clients (client_id)
  )`
  yield* sql`CREATE INDEX users_site ON users (site_id)`
  yield* sql`CREATE TABLE settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
  )`
})

/** Every migration of the store, by key. */
export const migrations: Record<string, Effect.Effect<void, unknown, SqlClient.SqlClient>> = {
  "0001_foundation": foundation
}
