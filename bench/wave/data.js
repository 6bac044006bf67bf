/**
 * The wave benchmark's warehouse: a deterministic data set of SKUs, contents, orders with three
 * lines each and one wave definition ("Alles", pick per order), seeded with direct SQL after the
 * engine's own migrations ran once, so seeding costs seconds, not minutes.
 */
import { Administration, SiteId } from "@wms/core"
import { Warehouse } from "@wms/http"
import Database from "better-sqlite3"
import { Effect, Option } from "effect"
import pg from "pg"

export const SKUS = 1_000
export const CONTENTS = 5_000
export const LINES_PER_ORDER = 3
export const SITE = "main"
export const ADMIN_EMAIL = "bench@example.com"
export const ADMIN_PASSWORD = "a-long-bench-password"

/** A small seeded generator (mulberry32): the same data on every run and every store. */
const random = (seed) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

const pad = (n, width) => String(n).padStart(width, "0")
const isoDay = (year, dayOfYear) => new Date(Date.UTC(year, 0, 1 + dayOfYear)).toISOString().slice(0, 10)

/**
 * The rows of a warehouse with `lines` order lines. Every SKU has one content without expiry,
 * one expired and three with expiry dates; the allocatable stock covers about 90% of the demand,
 * so most lines are allocated, some from two contents, and the last ones per SKU stay short.
 */
export const generate = (lines) => {
  const next = random(20240611)
  const orders = lines / LINES_PER_ORDER
  const demandPerSku = (lines / SKUS) * 5.5
  const skus = Array.from({ length: SKUS }, (_, i) => `SKU${pad(i + 1, 5)}`)
  const contents = []
  for (let i = 0; i < CONTENTS; i++) {
    const kind = Math.floor(i / SKUS)
    const expiry = kind === 0 ? null : kind === 1 ? "2020-01-01" : isoDay(2030 + kind, Math.floor(next() * 365))
    const mean = (demandPerSku * 0.9) / 4
    const qty = Math.max(2, Math.round(mean * (0.5 + next())))
    contents.push({
      sku_id: skus[i % SKUS],
      loc_id: `A-${pad(Math.floor(i / 40), 3)}-${pad(i % 40, 2)}`,
      tag_id: `T${pad(i + 1, 8)}`,
      expiry_date: expiry,
      qty,
      // Some stock is already held by earlier allocations.
      qty_allocated: i % 7 === 0 ? 1 : 0,
      created_at: new Date(Date.UTC(2025, 0, 1) + Math.floor(next() * 300) * 86_400_000).toISOString()
    })
  }
  const orderRows = []
  const lineRows = []
  for (let o = 0; o < orders; o++) {
    orderRows.push({
      order_id: `ORD${pad(o + 1, 7)}`,
      order_date: isoDay(2025, Math.floor(next() * 300)),
      ship_by_date: next() < 0.1 ? null : isoDay(2025, 300 + Math.floor(next() * 60)),
      ship_dock: next() < 0.2 ? "DOCK-2" : null
    })
    for (let l = 1; l <= LINES_PER_ORDER; l++) {
      lineRows.push({ order: o, line: l, sku_id: skus[Math.floor(next() * SKUS)], qty: 1 + Math.floor(next() * 10) })
    }
  }
  return { skus, contents, orders: orderRows, lines: lineRows }
}

/** Runs the migrations and the bootstrap (site `main`, one admin) through the engine itself. */
export const migrate = (database) =>
  Effect.runPromise(
    Effect.gen(function*() {
      const administration = yield* Administration
      yield* administration.bootstrap({
        siteId: SiteId.make(SITE),
        adminEmail: ADMIN_EMAIL,
        adminPassword: Option.some(ADMIN_PASSWORD)
      })
    }).pipe(Effect.provide(Warehouse.layer({ database })), Effect.scoped)
  )

const CREATED_AT = "2025-06-01T08:00:00.000Z"

/** Seeds a migrated SQLite file; answers the wave definition's id. */
export const seedSqlite = (filename, data) => {
  const db = new Database(filename)
  db.pragma("journal_mode = WAL")
  const adminId = db.prepare("SELECT user_id FROM users LIMIT 1").get().user_id
  db.transaction(() => {
    const sku = db.prepare(`INSERT INTO skus (site_id, sku_id, client_id, description, expiry_sku, obsolete, new,
      pick_method) VALUES (?, ?, NULL, ?, 1, 0, 0, 1)`)
    for (const id of data.skus) sku.run(SITE, id, `Article ${id}`)
    const content = db.prepare(`INSERT INTO contents (site_id, client_id, sku_id, loc_id, tag_id, expiry_date, qty,
      qty_allocated, qty_tasked_from, created_at) VALUES (?, NULL, ?, ?, ?, ?, ?, ?, 0, ?)`)
    for (const c of data.contents) {
      content.run(SITE, c.sku_id, c.loc_id, c.tag_id, c.expiry_date, c.qty, c.qty_allocated, c.created_at)
    }
    const order = db.prepare(`INSERT INTO orders (site_id, order_id, client_id, order_date, status_id, customer_id,
      ship_by_date, carrier_id, ship_dock, created_at, created_by) VALUES (?, ?, NULL, ?, 14, NULL, ?, NULL, ?, ?, ?)`)
    const ids = data.orders.map((o) =>
      Number(
        order.run(SITE, o.order_id, o.order_date, o.ship_by_date, o.ship_dock, CREATED_AT, adminId)
          .lastInsertRowid
      )
    )
    const line = db.prepare("INSERT INTO order_lines (order_ref, line, sku_id, qty) VALUES (?, ?, ?, ?)")
    for (const l of data.lines) line.run(ids[l.order], l.line, l.sku_id, l.qty)
  })()
  const definition = db.prepare(`INSERT INTO wave_definitions (site_id, description, criterium_id, value, pick_type,
    autostart) VALUES (?, 'Alles', 5, NULL, 1, 0) RETURNING id`).get(SITE).id
  db.pragma("wal_checkpoint(TRUNCATE)")
  db.close()
  return definition
}

/** Seeds a migrated PostgreSQL database with array-parameter inserts; answers the definition's id. */
export const seedPg = async (url, data) => {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query("BEGIN")
    const adminId = (await client.query("SELECT user_id FROM users LIMIT 1")).rows[0].user_id
    await client.query(
      `INSERT INTO skus (site_id, sku_id, client_id, description, expiry_sku, obsolete, new, pick_method)
       SELECT $1, s, NULL, 'Article ' || s, 1, 0, 0, 1 FROM unnest($2::text[]) AS t(s)`,
      [SITE, data.skus]
    )
    const c = data.contents
    await client.query(
      `INSERT INTO contents (site_id, client_id, sku_id, loc_id, tag_id, expiry_date, qty, qty_allocated,
         qty_tasked_from, created_at)
       SELECT $1, NULL, s, l, t, e, q, a, 0, ca
       FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::int[], $7::int[], $8::text[])
         WITH ORDINALITY AS v(s, l, t, e, q, a, ca, n) ORDER BY n`,
      [
        SITE,
        c.map((x) => x.sku_id),
        c.map((x) => x.loc_id),
        c.map((x) => x.tag_id),
        c.map((x) => x.expiry_date),
        c.map((x) => x.qty),
        c.map((x) => x.qty_allocated),
        c.map((x) => x.created_at)
      ]
    )
    const o = data.orders
    const ids = (await client.query(
      `INSERT INTO orders (site_id, order_id, client_id, order_date, status_id, customer_id, ship_by_date,
         carrier_id, ship_dock, created_at, created_by)
       SELECT $1, oid, NULL, od, 14, NULL, sb, NULL, sd, $2, $3
       FROM unnest($4::text[], $5::text[], $6::text[], $7::text[]) WITH ORDINALITY AS v(oid, od, sb, sd, n) ORDER BY n
       RETURNING id, order_id`,
      [
        SITE,
        CREATED_AT,
        adminId,
        o.map((x) => x.order_id),
        o.map((x) => x.order_date),
        o.map((x) => x.ship_by_date),
        o.map((x) => x.ship_dock)
      ]
    )).rows
    const refOf = new Map(ids.map((row) => [row.order_id, row.id]))
    const l = data.lines
    await client.query(
      `INSERT INTO order_lines (order_ref, line, sku_id, qty)
       SELECT * FROM unnest($1::int[], $2::int[], $3::text[], $4::int[])`,
      [l.map((x) => refOf.get(o[x.order].order_id)), l.map((x) => x.line), l.map((x) => x.sku_id), l.map((x) => x.qty)]
    )
    const definition = (await client.query(
      `INSERT INTO wave_definitions (site_id, description, criterium_id, value, pick_type, autostart)
       VALUES ($1, 'Alles', 5, NULL, 1, 0) RETURNING id`,
      [SITE]
    )).rows[0].id
    await client.query("COMMIT")
    await client.query("ANALYZE")
    return definition
  } finally {
    await client.end()
  }
}
