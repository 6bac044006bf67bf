/**
 * Users on @effect/sql.
 */
import { SqlClient } from "@effect/sql"
import { ClientId, SiteId, User, UserId, UserRepository } from "@wms/core"
import { Effect, Layer, Option } from "effect"

interface UserRow {
  readonly user_id: string
  readonly email: string
  readonly password_hash: string
  readonly name: string
  readonly admin: number
  readonly site_id: string
  readonly client_id: string | null
}

const toUser = (row: UserRow) =>
  new User({
    userId: UserId.make(row.user_id),
    email: row.email,
    name: row.name,
    admin: row.admin === 1,
    site: SiteId.make(row.site_id),
    client: row.client_id === null ? null : ClientId.make(row.client_id)
  })

export const layer = Layer.effect(
  UserRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    return UserRepository.of({
      list: (siteId) =>
        sql<UserRow>`SELECT * FROM users ${siteId === undefined ? sql`` : sql`WHERE site_id = ${siteId}`}
          ORDER BY email`.pipe(
          Effect.map((rows) => rows.map(toUser)),
          Effect.orDie
        ),
      count: sql<{ n: number }>`SELECT CAST(count(*) AS INTEGER) AS n FROM users`.pipe(
        Effect.map((rows) => rows[0].n),
        Effect.orDie
      ),
      findByEmail: (email) =>
        sql<UserRow>`SELECT * FROM users WHERE email = ${email}`.pipe(
          Effect.map((rows) =>
            Option.map(Option.fromNullable(rows[0]), (row) => ({ user: toUser(row), passwordHash: row.password_hash }))
          ),
          Effect.orDie
        ),
      insert: ({ passwordHash, user }) =>
        sql<{ user_id: string }>`INSERT INTO users (user_id, email, password_hash, name, admin, site_id, client_id)
          VALUES (${user.userId}, ${user.email}, ${passwordHash}, ${user.name}, ${user.admin ? 1 : 0},
            ${user.site}, ${user.client})
          ON CONFLICT (email) DO NOTHING RETURNING user_id`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie
        )
    })
  })
)
