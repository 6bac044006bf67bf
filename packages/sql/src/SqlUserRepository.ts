/**
 * Users on @effect/sql. `findById`, which checks the session of every request (cached for a few
 * seconds), is a `Prepared` text.
 */
import { SqlClient } from "@effect/sql"
import { ClientId, SiteId, User, UserId, UserRepository } from "@wms/core"
import { Effect, Layer, Option } from "effect"
import { byBytes, lockClause } from "./Fragments.js"
import { Prepared } from "./Prepared.js"
import { query, returnsRow, rows, run } from "./Query.js"

interface UserRow {
  readonly user_id: string
  readonly email: string
  readonly password_hash: string
  readonly name: string
  readonly admin: number
  readonly site_id: string
  readonly client_id: string | null
  readonly active: number
  readonly token_version: number
}

const toUser = (row: UserRow) =>
  new User({
    userId: UserId.make(row.user_id),
    email: row.email,
    name: row.name,
    admin: row.admin === 1,
    site: SiteId.make(row.site_id),
    client: row.client_id === null ? null : ClientId.make(row.client_id),
    active: row.active === 1
  })

const withCredentials = (rows: ReadonlyArray<UserRow>) =>
  Option.map(
    Option.fromNullable(rows[0]),
    (row) => ({ user: toUser(row), passwordHash: row.password_hash, tokenVersion: row.token_version })
  )

export const layer = Layer.effect(
  UserRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const findById = (yield* Prepared).prepare<UserRow>("SELECT * FROM users WHERE user_id = ?")

    return UserRepository.of({
      list: (siteId) =>
        rows(
          sql<UserRow>`SELECT * FROM users ${siteId === undefined ? sql`` : sql`WHERE site_id = ${siteId}`}
            ORDER BY email ${byBytes(sql)}`,
          toUser
        ),
      count: query(sql<{ n: number }>`SELECT CAST(count(*) AS INTEGER) AS n FROM users`, ([row]) => row.n),
      findByEmail: (email) => query(sql<UserRow>`SELECT * FROM users WHERE email = ${email}`, withCredentials),
      findById: (userId) => query(findById([userId]), withCredentials),
      insert: ({ passwordHash, tokenVersion, user }) =>
        returnsRow(sql`INSERT INTO users
            (user_id, email, password_hash, name, admin, site_id, client_id, active, token_version)
          VALUES (${user.userId}, ${user.email}, ${passwordHash}, ${user.name}, ${user.admin ? 1 : 0},
            ${user.site}, ${user.client}, ${user.active ? 1 : 0}, ${tokenVersion})
          ON CONFLICT (email) DO NOTHING RETURNING user_id`),
      update: ({ passwordHash, tokenVersion, user }) =>
        query(Effect.gen(function*() {
          const taken = yield* sql`SELECT 1 FROM users WHERE email = ${user.email} AND user_id <> ${user.userId}`
          if (taken.length > 0) return false
          yield* sql`UPDATE users SET email = ${user.email}, password_hash = ${passwordHash}, name = ${user.name},
            admin = ${user.admin ? 1 : 0}, site_id = ${user.site}, client_id = ${user.client},
            active = ${user.active ? 1 : 0}, token_version = ${tokenVersion}
            WHERE user_id = ${user.userId}`
          return true
        })),
      remove: (userId) => run(sql`DELETE FROM users WHERE user_id = ${userId}`),
      // The rows are locked: of two transactions demoting the last two admins, the second waits,
      // then sees one admin left. (SQLite runs one writer at a time anyway.)
      activeAdmins: query(
        sql`SELECT user_id FROM users WHERE admin = 1 AND active = 1 ${lockClause(sql, "update")}`,
        (rows) => rows.length
      )
    })
  })
)
