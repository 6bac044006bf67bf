/**
 * The location master and the occupancy of locations on @effect/sql. Occupancy is read by one
 * statement for any number of locations, grouped by location, tag, SKU and client: the stock on
 * hand beside the open tasks bound there, so a list of a thousand locations reads it once.
 */
import { SqlClient, type SqlError } from "@effect/sql"
import {
  LocationRepository,
  type LocationWithOccupancy,
  type Occupancy,
  type RowLock,
  type StoredLocation
} from "@wms/core"
import { Effect, Layer, Option } from "effect"
import { inTexts } from "./Dialect.js"
import { byBytes, lockClause, windowClause } from "./Fragments.js"
import { counted } from "./ListTotals.js"
import * as Prepared from "./Prepared.js"
import { query, returnsRow, rows, run } from "./Query.js"

const columns = "site_id, loc_id, description, loc_type, zone, sequence, max_tags, max_weight, max_volume, status, " +
  "client_id, last_counted"

/** A location row as read: the stored fields and when it was last counted. */
type LocationRow = StoredLocation & { readonly last_counted: string | null }

/** What one location holds, or has on its way, of one tag, SKU and client. */
interface HoldingRow {
  readonly loc_id: string
  /** 1 for open tasks bound to the location, 0 for stock on hand. */
  readonly inbound: number
  readonly tag_id: string
  readonly sku_id: string
  readonly client_id: string | null
  // A 64-bit sum: PostgreSQL returns a BIGINT as a string.
  readonly qty: number | string
  readonly weight: number
  readonly volume: number
}

const toRow = (location: StoredLocation) => ({
  site_id: location.site_id,
  loc_id: location.loc_id,
  description: location.description,
  loc_type: location.loc_type,
  zone: location.zone,
  sequence: location.sequence,
  max_tags: location.max_tags,
  max_weight: location.max_weight,
  max_volume: location.max_volume,
  status: location.status,
  client_id: location.client_id
})

const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

/** The occupancy of each location named in `holdings`; a location they do not name holds nothing. */
const occupancies = (holdings: ReadonlyArray<HoldingRow>): Map<string, Occupancy> => {
  interface Tally {
    qty_on_hand: number
    weight: number
    volume: number
    inbound_qty: number
    inbound_weight: number
    inbound_volume: number
    readonly onHandTags: Set<string>
    readonly inboundTags: Set<string>
    readonly holdings: Map<string, { readonly sku_id: string; readonly client_id: string | null }>
  }
  const tallies = new Map<string, Tally>()
  for (const row of holdings) {
    let tally = tallies.get(row.loc_id)
    if (tally === undefined) {
      tally = {
        qty_on_hand: 0,
        weight: 0,
        volume: 0,
        inbound_qty: 0,
        inbound_weight: 0,
        inbound_volume: 0,
        onHandTags: new Set(),
        inboundTags: new Set(),
        holdings: new Map()
      }
      tallies.set(row.loc_id, tally)
    }
    const qty = Number(row.qty)
    if (row.inbound === 1) {
      tally.inbound_qty += qty
      tally.inbound_weight += row.weight
      tally.inbound_volume += row.volume
      tally.inboundTags.add(row.tag_id)
    } else {
      tally.qty_on_hand += qty
      tally.weight += row.weight
      tally.volume += row.volume
      tally.onHandTags.add(row.tag_id)
    }
    tally.holdings.set(JSON.stringify([row.sku_id, row.client_id]), { sku_id: row.sku_id, client_id: row.client_id })
  }
  const result = new Map<string, Occupancy>()
  for (const [locId, tally] of tallies) {
    const tagIds = new Set([...tally.onHandTags, ...tally.inboundTags])
    result.set(locId, {
      qty_on_hand: tally.qty_on_hand,
      tags: tally.onHandTags.size,
      weight: tally.weight,
      volume: tally.volume,
      inbound_qty: tally.inbound_qty,
      inbound_tags: tagIds.size - tally.onHandTags.size,
      inbound_weight: tally.inbound_weight,
      inbound_volume: tally.inbound_volume,
      tag_ids: [...tagIds].sort(byCodeUnits),
      holdings: [...tally.holdings.keys()].sort(byCodeUnits).map((key) => tally.holdings.get(key)!)
    })
  }
  return result
}

const nothing: Occupancy = {
  qty_on_hand: 0,
  tags: 0,
  weight: 0,
  volume: 0,
  inbound_qty: 0,
  inbound_tags: 0,
  inbound_weight: 0,
  inbound_volume: 0,
  tag_ids: [],
  holdings: []
}

export const layer = Layer.effect(
  LocationRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const prepared = yield* Prepared.Prepared
    const selectColumns = sql.literal(columns)

    // Lists of ids go as one parameter, so one statement serves any number of locations.
    const onHandIn = inTexts(sql, "c.loc_id")
    const inboundIn = inTexts(sql, "t.to_loc_id")
    // Without statistics (no ANALYZE has run) SQLite reads the site's stock through an index by
    // SKU and filters the locations after, a scan of every content; the index by location is the one.
    const contentsByLocation = sql.onDialectOrElse({ pg: () => "", orElse: () => "INDEXED BY contents_location" })
    const holdingsAt = prepared.prepare<HoldingRow>(
      `SELECT c.loc_id, 0 AS inbound, c.tag_id, c.sku_id, c.client_id, CAST(sum(c.qty) AS BIGINT) AS qty,
          sum(c.qty * COALESCE(s.each_weight, 0)) AS weight, sum(c.qty * COALESCE(s.each_volume, 0)) AS volume
        FROM contents c ${contentsByLocation} LEFT JOIN skus s ON s.site_id = c.site_id AND s.sku_id = c.sku_id
        WHERE c.site_id = ? AND ${onHandIn.text} AND c.qty > 0
        GROUP BY c.loc_id, c.tag_id, c.sku_id, c.client_id
      UNION ALL
      SELECT t.to_loc_id, 1, t.tag_id, t.sku_id, t.client_id, CAST(sum(t.qty) AS BIGINT),
          sum(t.qty * COALESCE(s.each_weight, 0)), sum(t.qty * COALESCE(s.each_volume, 0))
        FROM movement_tasks t LEFT JOIN skus s ON s.site_id = t.site_id AND s.sku_id = t.sku_id
        WHERE t.site_id = ? AND ${inboundIn.text} AND t.status_id = 1
        GROUP BY t.to_loc_id, t.tag_id, t.sku_id, t.client_id`
    )

    // `lockMany`'s statements, one per lock: its clause, as `lockClause` writes it, is part of the text.
    const lockedIn = inTexts(sql, "loc_id")
    const lockingText = (lock: Exclude<RowLock, "none">) =>
      `SELECT ${columns} FROM locations WHERE site_id = ? AND ${lockedIn.text} ORDER BY loc_id ${
        sql.onDialectOrElse({
          pg: () => `COLLATE "C" ${lock === "share" ? "FOR SHARE" : "FOR UPDATE"}`,
          orElse: () => ""
        })
      }`
    const locking = {
      share: prepared.prepare<LocationRow>(lockingText("share")),
      update: prepared.prepare<LocationRow>(lockingText("update"))
    }
    const lockingCandidates = prepared.prepare<LocationRow>(
      `SELECT ${columns} FROM locations WHERE site_id = ? AND (loc_type = 'Storage' OR ${lockedIn.text})
        ORDER BY loc_id ${sql.onDialectOrElse({ pg: () => "COLLATE \"C\" FOR UPDATE", orElse: () => "" })}`
    )

    /** The locations with their occupancy, read after the statement that found (and locked) them. */
    const withOccupancy = (siteId: string, locations: ReadonlyArray<LocationRow>) => {
      if (locations.length === 0) return Effect.succeed([])
      const ids = locations.map((location) => location.loc_id)
      return Effect.map(
        holdingsAt([siteId, onHandIn.bind(ids), siteId, inboundIn.bind(ids)]),
        (holdings): ReadonlyArray<LocationWithOccupancy> => {
          const byLocation = occupancies(holdings)
          return locations.map((location) => ({ ...location, occupancy: byLocation.get(location.loc_id) ?? nothing }))
        }
      )
    }

    const read = (
      locations: Effect.Effect<ReadonlyArray<LocationRow>, SqlError.SqlError>,
      siteId: string
    ) => query(Effect.flatMap(locations, (found) => withOccupancy(siteId, found)))

    return LocationRepository.of({
      list: (siteId, filter, window) =>
        read(
          counted(sql, window, (page, total) =>
            sql<LocationRow>`SELECT ${selectColumns}${total} FROM locations
            WHERE ${
              sql.and([
                sql`site_id = ${siteId}`,
                ...(filter.zone === undefined ? [] : [sql`zone = ${filter.zone}`]),
                ...(filter.loc_type === undefined ? [] : [sql`loc_type = ${filter.loc_type}`]),
                ...(filter.status === undefined ? [] : [sql`status = ${filter.status}`])
              ])
            }
            ORDER BY loc_id ${byBytes(sql)} ${windowClause(sql, page)}`),
          siteId
        ),
      find: (siteId, locId, lock) =>
        Effect.map(
          read(
            sql<LocationRow>`SELECT ${selectColumns} FROM locations
              WHERE site_id = ${siteId} AND loc_id = ${locId} ${lockClause(sql, lock)}`,
            siteId
          ),
          (found) => Option.fromNullable(found[0])
        ),
      lockMany: (siteId, locIds, lock) =>
        locIds.length === 0
          ? Effect.succeed([])
          : read(locking[lock]([siteId, lockedIn.bind([...new Set(locIds)])]), siteId),
      lockManyBare: (siteId, locIds, lock) =>
        locIds.length === 0 ? Effect.succeed([]) : rows(locking[lock]([siteId, lockedIn.bind([...new Set(locIds)])])),
      occupancyOf: (siteId, locIds) =>
        locIds.length === 0 ? Effect.succeed([]) : query(
          holdingsAt([siteId, onHandIn.bind(locIds), siteId, inboundIn.bind(locIds)]),
          (holdings) => {
            const byLocation = occupancies(holdings)
            return locIds.map((locId) => byLocation.get(locId) ?? nothing)
          }
        ),
      lockPutawayCandidates: (siteId, preferred, also = []) =>
        read(
          lockingCandidates([siteId, lockedIn.bind([...new Set(preferred === null ? also : [preferred, ...also])])]),
          siteId
        ),
      insert: (location) =>
        returnsRow(sql`INSERT INTO locations ${sql.insert(toRow(location))}
          ON CONFLICT (site_id, loc_id) DO NOTHING RETURNING loc_id`),
      update: (location) => {
        const { loc_id, site_id, ...fields } = toRow(location)
        return returnsRow(sql`UPDATE locations SET ${sql.update(fields)}
          WHERE site_id = ${site_id} AND loc_id = ${loc_id} RETURNING loc_id`)
      },
      holdsStockOrTasks: (siteId, locId) =>
        returnsRow(sql`SELECT 1 AS used
          WHERE EXISTS (SELECT 1 FROM contents WHERE site_id = ${siteId} AND loc_id = ${locId} AND qty > 0)
            OR EXISTS (SELECT 1 FROM movement_tasks
              WHERE site_id = ${siteId} AND from_loc_id = ${locId} AND status_id = 1)
            OR EXISTS (SELECT 1 FROM movement_tasks
              WHERE site_id = ${siteId} AND to_loc_id = ${locId} AND status_id = 1)`),
      remove: (siteId, locId) => run(sql`DELETE FROM locations WHERE site_id = ${siteId} AND loc_id = ${locId}`),
      setStatus: (siteId, locId, status, countedAt) =>
        run(
          countedAt === undefined
            ? sql`UPDATE locations SET status = ${status} WHERE site_id = ${siteId} AND loc_id = ${locId}`
            : sql`UPDATE locations SET status = ${status}, last_counted = ${countedAt}
              WHERE site_id = ${siteId} AND loc_id = ${locId}`
        )
    })
  })
)
