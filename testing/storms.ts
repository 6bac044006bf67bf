/**
 * What the multi-process storms share: a seeded generator, a direct connection to the database
 * the servers share (to check it afterwards), and the servers' logged failures for a report.
 */
import { PgClient } from "@effect/sql-pg"
import { SqliteStore } from "@wms/sql-sqlite"
import { Layer, Redacted } from "effect"
import type { ServerProcess } from "./processes.js"

/** The database a storm's servers share. */
export type StormDatabase = { kind: "pg"; url: string } | { kind: "sqlite"; filename: string }

/** A small seeded generator, so a failing run's choices can be told apart by its seed. */
export const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

/** An `SqlClient` on the storm's database, to read what the servers left. */
export const storeSql = (database: StormDatabase) =>
  database.kind === "pg"
    ? Layer.orDie(PgClient.layer({ url: Redacted.make(database.url), maxConnections: 2 }))
    : SqliteStore.layer({ filename: database.filename })

/** The servers' logged failures, for the report of an unexpected status. */
export const failuresLogged = (servers: ReadonlyArray<ServerProcess>) =>
  servers.flatMap((server, i) =>
    server.output().split(/\n(?=\[)/).filter((entry) => entry.includes("ERROR")).map((entry) =>
      `process ${i}: ${entry}`
    )
  ).join("\n").slice(0, 20_000)
