/**
 * The lower bound, in its own process: the rows a wave create and start write (the wave and its
 * orders; claimsets, claims, Allocate transactions, content allocations, order statuses, the wave
 * status, and the events: one `order_allocated` with the order's view per allocated order and one
 * `wave_started`), written by hand-written prepared statements in one transaction per step,
 * straight on the driver (better-sqlite3, pg). The allocation is computed before the clock starts
 * by the core's pure `allocate`, from rows read before the clock starts: only the writes (and the
 * JSON of the events) are timed. The pragmas are the SQLite store's own.
 */
import {
  allocate,
  composeCustomerName,
  formatDateTime,
  pickTypeDescription,
  statusDescription,
  statusObject
} from "@wms/core"
import Database from "better-sqlite3"
import { performance } from "node:perf_hooks"
import pg from "pg"
import { SITE } from "./data.js"

const [database, definitionId] = [process.argv[2], Number(process.argv[3])]

/** The input of the allocation, shaped as the engine's repository shapes it. */
const toOrders = (headers, lines) => {
  const byOrder = new Map()
  for (const { order_ref, line, sku_id, qty } of lines) {
    const list = byOrder.get(order_ref)
    if (list === undefined) byOrder.set(order_ref, [{ line, sku_id, qty }])
    else list.push({ line, sku_id, qty })
  }
  return headers.map((header) => ({ ...header, lines: byOrder.get(header.order_ref) ?? [] }))
}

const plan = (orders, stock, waveId, definition, defaultDock) =>
  allocate(orders, stock, {
    waveId,
    pickType: definition.pick_type,
    pickTypeDescription: pickTypeDescription(definition.pick_type),
    today: new Date().toISOString().slice(0, 10),
    defaultDock
  })

const ORDER_COLUMNS = `o.id AS order_ref, o.order_id, o.client_id, o.order_date, o.ship_by_date, o.ship_dock,
  cu.name AS customer_name, ca.name AS carrier_name, o.customer_id, cu.town AS customer_town, o.created_at,
  o.created_by, o.backorder_of`
const ORDER_JOINS = `LEFT JOIN customers cu ON cu.id = o.customer_id LEFT JOIN carriers ca ON ca.id = o.carrier_id`
const LINE_COLUMNS = "l.order_ref, l.line, l.sku_id, l.qty, l.qty_picked, l.qty_shipped, l.qty_backordered"
const STOCK_COLUMNS = `content_id, sku_id, client_id, loc_id, tag_id, expiry_date, created_at, qty, qty_allocated,
  qty_tasked_from`

/** The JSON of `order_allocated` for every order that got stock, as `GET /orders/:id` shows it. */
const orderEvents = (headers, lines, allocation) => {
  const byOrder = new Map()
  for (const line of lines) {
    const list = byOrder.get(line.order_ref)
    if (list === undefined) byOrder.set(line.order_ref, [line])
    else list.push(line)
  }
  const byRef = new Map(headers.map((header) => [header.order_ref, header]))
  const events = []
  for (const [ref, status] of allocation.orderStatuses) {
    if (status === 14) continue
    const o = byRef.get(ref)
    events.push({
      client_id: o.client_id,
      data: JSON.stringify({
        order_id: o.order_id,
        client_id: o.client_id,
        order_date: o.order_date,
        order_status: statusObject(status),
        order_status_description: statusDescription(status),
        customer: o.customer_id === null
          ? null
          : { id: o.customer_id, name: composeCustomerName(o.customer_name, o.customer_town) },
        ship_by_date: o.ship_by_date,
        carrier: o.carrier_name,
        ship_dock: o.ship_dock,
        creation_datetime: formatDateTime(o.created_at, "UTC"),
        created_by: o.created_by,
        ...(o.backorder_of === null ? {} : { backorder_of: o.backorder_of }),
        lines: (byOrder.get(ref) ?? []).map((l) => ({
          order_id: o.order_id,
          line: l.line,
          sku_id: l.sku_id,
          qty: l.qty,
          qty_picked: l.qty_picked,
          qty_shipped: l.qty_shipped,
          ...(l.qty_backordered === 0 ? {} : { qty_backordered: l.qty_backordered })
        }))
      })
    })
  }
  return events
}

/** The JSON of `wave_started`: the wave with its quantities. */
const waveEvent = (waveId, definition, lines, allocation) => {
  const ordered = lines.reduce((sum, line) => sum + line.qty, 0)
  const allocated = allocation.claims.reduce((sum, claim) => sum + claim.qty, 0)
  return JSON.stringify({
    id: waveId,
    status: statusDescription(15),
    status_id: 15,
    criterium: "Alles",
    criterium_id: definition.criterium_id,
    value: definition.value,
    picktypedescription: pickTypeDescription(definition.pick_type),
    pick_type: definition.pick_type,
    autostart: false,
    site_id: SITE,
    order_count: allocation.orderStatuses.size,
    qty_ordered: ordered,
    qty_allocated: allocated,
    qty_short: ordered - allocated
  })
}

const sqlite = (filename) => {
  const db = new Database(filename)
  db.pragma("journal_mode = WAL")
  db.pragma("busy_timeout = 10000")
  db.pragma("foreign_keys = ON")
  db.pragma("synchronous = NORMAL")
  const definition = db.prepare("SELECT * FROM wave_definitions WHERE id = ?").get(definitionId)
  const adminId = db.prepare("SELECT user_id FROM users LIMIT 1").get().user_id
  const candidates = db.prepare("SELECT id FROM orders WHERE site_id = ? AND status_id = 14 ORDER BY id").pluck()
    .all(SITE)

  const t0 = performance.now()
  db.exec("BEGIN IMMEDIATE")
  const waveId = Number(
    db.prepare(`INSERT INTO waves (site_id, client_id, status_id, criterium_id, value, pick_type,
    autostart, created_at, created_by) VALUES (?, NULL, 14, ?, ?, ?, 0, ?, ?)`)
      .run(SITE, definition.criterium_id, definition.value, definition.pick_type, new Date().toISOString(), adminId)
      .lastInsertRowid
  )
  const attach = db.prepare("INSERT INTO wave_orders (wave_id, order_ref) VALUES (?, ?)")
  for (const ref of candidates) attach.run(waveId, ref)
  db.exec("COMMIT")
  const createMs = performance.now() - t0

  const headers = db.prepare(`SELECT ${ORDER_COLUMNS} FROM wave_orders wo JOIN orders o ON o.id = wo.order_ref
    ${ORDER_JOINS} WHERE wo.wave_id = ? AND o.status_id = 14 ORDER BY o.id`).all(waveId)
  const lines = db.prepare(`SELECT ${LINE_COLUMNS} FROM wave_orders wo
    JOIN order_lines l ON l.order_ref = wo.order_ref WHERE wo.wave_id = ?`).all(waveId)
  const skuIds = [...new Set(lines.map((line) => line.sku_id))]
  const stock = db.prepare(`SELECT ${STOCK_COLUMNS} FROM contents WHERE site_id = ? AND sku_id IN (SELECT value
    FROM json_each(?)) AND qty - qty_allocated - qty_tasked_from > 0 ORDER BY content_id`)
    .all(SITE, JSON.stringify(skuIds))
  const defaultDock = db.prepare("SELECT default_dock FROM sites WHERE site_id = ?").pluck().get(SITE)
  const allocation = plan(toOrders(headers, lines), stock, waveId, definition, defaultDock)
  const createdAt = new Date().toISOString()
  const notes = `Wave ${waveId}`

  const t1 = performance.now()
  const cpu = process.cpuUsage()
  db.exec("BEGIN IMMEDIATE")
  const claimset = db.prepare(
    "INSERT INTO claimsets (wave_id, claimset_break, pick_type, status) VALUES (?, ?, ?, 'released')"
  )
  const claimsetIds = allocation.claimsets.map((set) =>
    Number(claimset.run(waveId, set.claimset_break, set.pick_type).lastInsertRowid)
  )
  const claim = db.prepare(`INSERT INTO claims (site_id, client_id, wave_id, claimset_id, content_id, order_ref,
    order_id, line_id, sku_id, qty, status, tag_id, from_loc_id, to_loc_id, final_loc_id, created_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'allocated', ?, ?, ?, ?, ?)`)
  const transaction = db.prepare(`INSERT INTO inventory_transactions (site_id, client_id, created_at,
    transaction_type, content_id, from_loc_id, to_loc_id, final_loc_id, sku_id, qty, tag_id, order_id, line_id, notes)
    VALUES (?, ?, ?, 'Allocate', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
  for (const c of allocation.claims) {
    claim.run(
      SITE,
      c.client_id,
      waveId,
      claimsetIds[c.claimset],
      c.content_id,
      c.order_ref,
      c.order_id,
      c.line_id,
      c.sku_id,
      c.qty,
      c.tag_id,
      c.from_loc_id,
      c.to_loc_id,
      c.to_loc_id,
      createdAt
    )
  }
  for (const c of allocation.claims) {
    transaction.run(
      SITE,
      c.client_id,
      createdAt,
      c.content_id,
      c.from_loc_id,
      c.to_loc_id,
      c.to_loc_id,
      c.sku_id,
      c.qty,
      c.tag_id,
      c.order_id,
      c.line_id,
      notes
    )
  }
  const content = db.prepare("UPDATE contents SET qty_allocated = qty_allocated + ? WHERE content_id = ?")
  for (const [id, delta] of allocation.allocatedByContent) content.run(delta, id)
  const order = db.prepare("UPDATE orders SET status_id = ? WHERE id = ?")
  for (const [ref, status] of allocation.orderStatuses) order.run(status, ref)
  db.prepare("UPDATE waves SET status_id = 15 WHERE id = ?").run(waveId)
  const event = db.prepare(
    "INSERT INTO events (event_type, site_id, client_id, created_at, data) VALUES (?, ?, ?, ?, ?)"
  )
  const events = orderEvents(headers, lines, allocation)
  for (const e of events) event.run("order_allocated", SITE, e.client_id, createdAt, e.data)
  event.run("wave_started", SITE, null, createdAt, waveEvent(waveId, definition, lines, allocation))
  db.exec("COMMIT")
  const startMs = performance.now() - t1
  const { user, system } = process.cpuUsage(cpu)
  db.close()
  const startCpuMs = (user + system) / 1000
  return { createMs, startMs, startCpuMs, allocation, events: events.length + 1, attached: candidates.length }
}

const postgres = async (url) => {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  const one = async (text, values) => (await client.query(text, values)).rows
  try {
    const [definition] = await one("SELECT * FROM wave_definitions WHERE id = $1", [definitionId])
    const [{ user_id: adminId }] = await one("SELECT user_id FROM users LIMIT 1")
    const candidates = (await one("SELECT id FROM orders WHERE site_id = $1 AND status_id = 14 ORDER BY id", [SITE]))
      .map((row) => row.id)

    const t0 = performance.now()
    await client.query("BEGIN")
    const [{ id: waveId }] = await one({
      name: "wave",
      text: `INSERT INTO waves (site_id, client_id, status_id, criterium_id, value, pick_type, autostart, created_at,
        created_by) VALUES ($1, NULL, 14, $2, $3, $4, 0, $5, $6) RETURNING id`,
      values: [SITE, definition.criterium_id, definition.value, definition.pick_type, new Date().toISOString(), adminId]
    })
    await client.query({
      name: "attach",
      text: "INSERT INTO wave_orders (wave_id, order_ref) SELECT $1, r FROM unnest($2::int[]) AS t(r)",
      values: [waveId, candidates]
    })
    await client.query("COMMIT")
    const createMs = performance.now() - t0

    const headers = await one(
      `SELECT ${ORDER_COLUMNS} FROM wave_orders wo JOIN orders o ON o.id = wo.order_ref
      ${ORDER_JOINS} WHERE wo.wave_id = $1 AND o.status_id = 14 ORDER BY o.id`,
      [waveId]
    )
    const lines = await one(
      `SELECT ${LINE_COLUMNS} FROM wave_orders wo
      JOIN order_lines l ON l.order_ref = wo.order_ref WHERE wo.wave_id = $1`,
      [waveId]
    )
    const skuIds = [...new Set(lines.map((line) => line.sku_id))]
    const stock = await one(
      `SELECT ${STOCK_COLUMNS} FROM contents WHERE site_id = $1 AND sku_id = ANY($2::text[])
      AND qty - qty_allocated - qty_tasked_from > 0 ORDER BY content_id`,
      [SITE, skuIds]
    )
    const [{ default_dock: defaultDock }] = await one("SELECT default_dock FROM sites WHERE site_id = $1", [SITE])
    const allocation = plan(toOrders(headers, lines), stock, waveId, definition, defaultDock)
    const createdAt = new Date().toISOString()
    const claims = allocation.claims
    const column = (f) => claims.map(f)

    // Whole columns as array parameters: one statement per table, the fastest way to PostgreSQL
    // short of COPY.
    const t1 = performance.now()
    const cpu = process.cpuUsage()
    await client.query("BEGIN")
    const ids = new Map((await one({
      name: "claimsets",
      text: `INSERT INTO claimsets (wave_id, claimset_break, pick_type, status)
        SELECT $1, b, p, 'released' FROM unnest($2::text[], $3::text[]) AS t(b, p) RETURNING id, claimset_break`,
      values: [waveId, allocation.claimsets.map((s) => s.claimset_break), allocation.claimsets.map((s) => s.pick_type)]
    })).map((row) => [row.claimset_break, row.id]))
    const claimsetIds = allocation.claimsets.map((s) => ids.get(s.claimset_break))
    await client.query({
      name: "claims",
      text: `INSERT INTO claims (site_id, client_id, wave_id, claimset_id, content_id, order_ref, order_id, line_id,
        sku_id, qty, status, tag_id, from_loc_id, to_loc_id, final_loc_id, created_at)
        SELECT $1, ci, $2, cs, co, o, oi, li, s, q, 'allocated', t, f, d, d, $3
        FROM unnest($4::text[], $5::int[], $6::int[], $7::int[], $8::text[], $9::int[], $10::text[], $11::int[],
          $12::text[], $13::text[], $14::text[]) AS v(ci, cs, co, o, oi, li, s, q, t, f, d)`,
      values: [
        SITE,
        waveId,
        createdAt,
        column((c) => c.client_id),
        column((c) => claimsetIds[c.claimset]),
        column((c) => c.content_id),
        column((c) => c.order_ref),
        column((c) => c.order_id),
        column((c) => c.line_id),
        column((c) => c.sku_id),
        column((c) => c.qty),
        column((c) => c.tag_id),
        column((c) => c.from_loc_id),
        column((c) => c.to_loc_id)
      ]
    })
    await client.query({
      name: "transactions",
      text: `INSERT INTO inventory_transactions (site_id, client_id, created_at, transaction_type, content_id,
        from_loc_id, to_loc_id, final_loc_id, sku_id, qty, tag_id, order_id, line_id, notes)
        SELECT $1, ci, $2, 'Allocate', co, f, d, d, s, q, t, oi, li, $3
        FROM unnest($4::text[], $5::int[], $6::text[], $7::text[], $8::text[], $9::int[], $10::text[], $11::text[],
          $12::int[]) AS v(ci, co, f, d, s, q, t, oi, li)`,
      values: [
        SITE,
        createdAt,
        `Wave ${waveId}`,
        column((c) => c.client_id),
        column((c) => c.content_id),
        column((c) => c.from_loc_id),
        column((c) => c.to_loc_id),
        column((c) => c.sku_id),
        column((c) => c.qty),
        column((c) => c.tag_id),
        column((c) => c.order_id),
        column((c) => c.line_id)
      ]
    })
    const deltas = [...allocation.allocatedByContent]
    await client.query({
      name: "contents",
      text: `UPDATE contents c SET qty_allocated = c.qty_allocated + v.d FROM unnest($1::int[], $2::int[]) AS v(id, d)
        WHERE c.content_id = v.id`,
      values: [deltas.map(([id]) => id), deltas.map(([, delta]) => delta)]
    })
    const statuses = [...allocation.orderStatuses]
    await client.query({
      name: "orders",
      text: `UPDATE orders o SET status_id = v.s FROM unnest($1::int[], $2::int[]) AS v(id, s) WHERE o.id = v.id`,
      values: [statuses.map(([ref]) => ref), statuses.map(([, status]) => status)]
    })
    await client.query({ name: "wave_status", text: "UPDATE waves SET status_id = 15 WHERE id = $1", values: [waveId] })
    const events = orderEvents(headers, lines, allocation)
    events.push({ type: "wave_started", client_id: null, data: waveEvent(waveId, definition, lines, allocation) })
    await client.query({
      name: "events",
      text: `INSERT INTO events (event_type, site_id, client_id, created_at, data)
        SELECT t, $1, c, $2, d FROM unnest($3::text[], $4::text[], $5::text[]) WITH ORDINALITY AS v(t, c, d, n)
        ORDER BY n`,
      values: [
        SITE,
        createdAt,
        events.map((e) => e.type ?? "order_allocated"),
        events.map((e) => e.client_id),
        events.map((e) => e.data)
      ]
    })
    await client.query("COMMIT")
    const startMs = performance.now() - t1
    const { user, system } = process.cpuUsage(cpu)
    const startCpuMs = (user + system) / 1000
    return { createMs, startMs, startCpuMs, allocation, events: events.length, attached: candidates.length }
  } finally {
    await client.end()
  }
}

const run = database.startsWith("sqlite:")
  ? Promise.resolve().then(() => sqlite(database.slice("sqlite:".length)))
  : postgres(database)
run.then(
  ({ createMs, startMs, startCpuMs, allocation, events, attached }) =>
    process.send({
      ok: true,
      result: {
        createMs,
        startMs,
        startCpuMs,
        counts: {
          wave_orders: attached,
          claimsets: allocation.claimsets.length,
          claims: allocation.claims.length,
          qty: allocation.claims.reduce((sum, claim) => sum + claim.qty, 0),
          contents: allocation.allocatedByContent.size,
          transactions: allocation.claims.length,
          events
        },
        peakRssKiB: process.resourceUsage().maxRSS
      }
    }, () => process.exit(0)),
  (error) => process.send({ ok: false, error: String(error?.stack ?? error) }, () => process.exit(1))
)
