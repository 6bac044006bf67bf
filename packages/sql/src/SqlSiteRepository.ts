/**
 * Sites and clients on @effect/sql. The lookups of `findTarget`, which resolves the `site` header of
 * requests, are `Prepared` texts.
 */
import { SqlClient } from "@effect/sql"
import { Client, ClientId, Site, SiteId, SiteRepository } from "@wms/core"
import type { ScopeTarget } from "@wms/core"
import { Effect, Layer, Option } from "effect"
import { byBytes } from "./Fragments.js"
import { Prepared } from "./Prepared.js"
import { query, returnsRow, rows } from "./Query.js"

interface SiteRow {
  readonly site_id: string
  readonly name: string
  readonly fulfillment: number
}

interface ClientRow {
  readonly client_id: string
  readonly site_id: string
  readonly name: string
}

const toSite = (row: SiteRow) =>
  new Site({ site_id: SiteId.make(row.site_id), name: row.name, fulfillment: row.fulfillment === 1 })

const toClient = (row: ClientRow) =>
  new Client({ client_id: ClientId.make(row.client_id), site_id: SiteId.make(row.site_id), name: row.name })

// Targets found, so the `site` header of each request costs no query. Sites and clients are never
// deleted or changed, so a found target stays right; a miss is never kept, so a new one is found.
const targetCacheSize = 10_000

export const layer = Layer.effect(
  SiteRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const prepared = yield* Prepared

    const claimKey = (id: string, kind: "site" | "client") =>
      sql<{ id: string }>`INSERT INTO scope_keys (id, kind) VALUES (${id}, ${kind})
        ON CONFLICT (id) DO NOTHING RETURNING id`.pipe(Effect.map((rows) => rows.length === 1))

    const selectSite = prepared.prepare<SiteRow>("SELECT site_id, name, fulfillment FROM sites WHERE site_id = ?")
    const selectClient = prepared.prepare<ClientRow & { site_name: string; fulfillment: number }>(
      `SELECT c.client_id, c.site_id, c.name, s.name AS site_name, s.fulfillment
      FROM clients c JOIN sites s ON s.site_id = c.site_id
      WHERE c.client_id = ?`
    )

    const findSite = (siteId: string) =>
      selectSite([siteId]).pipe(Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toSite)))

    const targets = new Map<string, ScopeTarget>()

    // Only what is committed is kept: a target written in an open transaction may still be rolled back.
    const keep = (id: string) => (target: Option.Option<ScopeTarget>) =>
      Option.isNone(target)
        ? Effect.void
        : Effect.map(Effect.serviceOption(SqlClient.TransactionConnection), (open) => {
          if (Option.isSome(open)) return
          if (targets.size >= targetCacheSize) targets.delete(targets.keys().next().value!)
          targets.set(id, target.value)
        })

    const lookupTarget = (id: string) =>
      query(Effect.tap(
        Effect.gen(function*() {
          const site = yield* findSite(id)
          if (Option.isSome(site)) return Option.some<ScopeTarget>({ _tag: "Site", site: site.value })
          const rows = yield* selectClient([id])
          return Option.map(Option.fromNullable(rows[0]), (row): ScopeTarget => ({
            _tag: "Client",
            client: toClient(row),
            site: toSite({ site_id: row.site_id, name: row.site_name, fulfillment: row.fulfillment })
          }))
        }),
        keep(id)
      ))

    return SiteRepository.of({
      listSites: rows(
        sql<SiteRow>`SELECT site_id, name, fulfillment FROM sites ORDER BY site_id ${byBytes(sql)}`,
        toSite
      ),
      findSite: (siteId) => query(findSite(siteId)),
      insertSite: (site) =>
        query(Effect.gen(function*() {
          if (!(yield* claimKey(site.site_id, "site"))) return false
          yield* sql`INSERT INTO sites (site_id, name, fulfillment)
            VALUES (${site.site_id}, ${site.name}, ${site.fulfillment ? 1 : 0})`
          return true
        })),
      listClients: (siteId) =>
        rows(
          sql<ClientRow>`SELECT client_id, site_id, name FROM clients WHERE site_id = ${siteId} ORDER BY client_id ${
            byBytes(sql)
          }`,
          toClient
        ),
      insertClient: (client) =>
        query(Effect.gen(function*() {
          if (!(yield* claimKey(client.client_id, "client"))) return false
          yield* sql`INSERT INTO clients (client_id, site_id, name)
            VALUES (${client.client_id}, ${client.site_id}, ${client.name})`
          return true
        })),
      findTarget: (id) => {
        const cached = targets.get(id)
        return cached === undefined ? lookupTarget(id) : Effect.succeed(Option.some(cached))
      },
      clientOfSite: (siteId, clientId) =>
        returnsRow(sql`SELECT client_id FROM clients WHERE client_id = ${clientId} AND site_id = ${siteId}`)
    })
  })
)
