/**
 * The hand-written side of the HTTP benchmark: the three order endpoints as a user would write
 * them without the engine, with prepared statements on better-sqlite3 or pg, on the engine's own
 * schema and rows, answering the same JSON. Shared by the bare `node:http` server (the limit) and
 * the Fastify server. Neither checks a token or the `site` header: the header is taken as the site.
 */
import Database from "better-sqlite3"
import pg from "pg"

/** The status table of the engine (`Status.ts`), by id. */
export const statusDescriptions = {
  1: "Open",
  2: "In Receipt",
  3: "Received",
  14: "Released",
  15: "Allocated",
  16: "Partially Allocated",
  17: "In Progress",
  18: "Picked",
  19: "Shipped",
  20: "Complete"
}

// One row per order with its lines as a JSON array of `[line, sku_id, qty, qty_picked, qty_shipped, qty_backordered]`,
// the engine's own query: fewer cells than a join repeating the order on every line.
const orderSelect = (linesAggregate) =>
  `SELECT o.id AS ref, o.order_id, o.client_id, o.order_date, o.status_id,
  o.customer_id, c.name AS customer_name, c.town AS customer_town, o.ship_by_date, k.name AS carrier_name,
  o.ship_dock, o.created_at, o.created_by, o.backorder_of, o.to_site,
  (SELECT ${linesAggregate} FROM order_lines l WHERE l.order_ref = o.id) AS lines
  FROM orders o LEFT JOIN customers c ON c.id = o.customer_id LEFT JOIN carriers k ON k.id = o.carrier_id`
const lineValues = "l.line, l.sku_id, l.qty, l.qty_picked, l.qty_shipped, l.qty_backordered"
const sqliteSelect = orderSelect(`json_group_array(json_array(${lineValues}) ORDER BY l.line)`)
const pgSelect = orderSelect(`CAST(json_agg(json_build_array(${lineValues}) ORDER BY l.line) AS TEXT)`)

/** `YYYY-MM-DD HH:mm:ss` of a stored UTC ISO instant (the servers run in UTC). */
const dateTime = (iso) => `${iso.slice(0, 10)} ${iso.slice(11, 19)}`

/** A row of `orderSelect` as the API's order. */
export const toOrder = (row) => {
  const description = statusDescriptions[row.status_id]
  return {
    order_id: row.order_id,
    client_id: row.client_id,
    order_date: row.order_date,
    order_status: { id: row.status_id, description },
    order_status_description: description,
    customer: row.customer_id === null ? null : {
      id: row.customer_id,
      name: row.customer_town === null || row.customer_town.trim() === ""
        ? row.customer_name
        : `${row.customer_name}, ${row.customer_town}`
    },
    ship_by_date: row.ship_by_date,
    carrier: row.carrier_name,
    ship_dock: row.ship_dock,
    creation_datetime: dateTime(row.created_at),
    created_by: row.created_by,
    order_type: row.to_site === null ? "Customer" : "Transfer",
    to_site: row.to_site,
    ...(row.backorder_of === null ? {} : { backorder_of: row.backorder_of }),
    lines: row.lines === null ?
      [] :
      JSON.parse(row.lines).map(([line, sku_id, qty, qty_picked, qty_shipped, qty_backordered]) =>
        // `qty_backordered` only on a line that has some, as the engine shows it.
        qty_backordered === 0
          ? { order_id: row.order_id, line, sku_id, qty, qty_picked, qty_shipped }
          : { order_id: row.order_id, line, sku_id, qty, qty_picked, qty_shipped, qty_backordered }
      )
  }
}

class Failure extends Error {
  constructor(status, message) {
    super(message)
    this.status = status
  }
}

/** A 400 with its message. */
export const invalid = (message) => new Failure(400, message)
const isId = (value) => Number.isInteger(value) && value >= 1 && value <= 2147483647
const isDate = (value) => typeof value === "string" && /^\d{4}-\d{2}-\d{2}$/.test(value)

/** The checks of `POST /orders` that need no database, by hand. */
export const validateOrder = (body) => {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw invalid("Request body must be a JSON object")
  }
  const { order_id, customer_id, carrier_id, order_date, ship_by_date, ship_dock, lines = [] } = body
  if (order_id === undefined) throw invalid("Missing field order_id")
  if (typeof order_id !== "string" || order_id.trim() === "" || order_id.length > 100) {
    throw invalid("Invalid field order_id")
  }
  if (customer_id != null && !isId(customer_id)) throw invalid("Invalid field customer_id")
  if (carrier_id != null && !isId(carrier_id)) throw invalid("Invalid field carrier_id")
  if (order_date != null && !isDate(order_date)) throw invalid("Invalid field order_date")
  if (ship_by_date != null && !isDate(ship_by_date)) throw invalid("Invalid field ship_by_date")
  if (ship_dock != null && typeof ship_dock !== "string") throw invalid("Invalid field ship_dock")
  if (!Array.isArray(lines)) throw invalid("Invalid field lines")
  lines.forEach((line, i) => {
    if (typeof line?.sku_id !== "string" || line.sku_id === "") throw invalid(`Invalid field lines.${i}.sku_id`)
    if (!isId(line.qty)) throw invalid(`Invalid field lines.${i}.qty`)
  })
  return {
    order_id,
    customer_id: customer_id ?? null,
    carrier_id: carrier_id ?? null,
    order_date: order_date ?? null,
    ship_by_date: ship_by_date ?? null,
    ship_dock: ship_dock == null || ship_dock.trim() === "" ? null : ship_dock,
    lines: lines.map((line, i) => ({ line: i + 1, sku_id: line.sku_id, qty: line.qty }))
  }
}

const missingSku = (order, visible) => {
  const i = order.lines.findIndex((line) => !visible.has(line.sku_id))
  return i < 0 ? undefined : invalid(`Invalid field lines.${i}.sku_id: sku ${order.lines[i].sku_id} does not exist`)
}

const exists = (orderId) => new Failure(409, `Order with OrderID ${orderId} already exists`)
const notFound = (orderId) => new Failure(404, `Order with OrderID ${orderId} not found`)

/** The three endpoints on a SQLite file. Each answers `{status, body}`; a failure is `{status, message}`. */
const sqliteStore = (filename) => {
  const db = new Database(filename)
  db.pragma("journal_mode = WAL")
  db.pragma("busy_timeout = 10000")
  db.pragma("foreign_keys = ON")
  db.pragma("synchronous = NORMAL")
  const byId = db.prepare(`${sqliteSelect} WHERE o.site_id = ? AND o.order_id = ?`)
  const list = db.prepare(`${sqliteSelect} WHERE o.site_id = ? ORDER BY o.id`)
  const customer = db.prepare("SELECT id FROM customers WHERE id = ? AND site_id = ?")
  const carrier = db.prepare("SELECT id FROM carriers WHERE id = ? AND site_id = ?")
  const skus = db.prepare(`SELECT sku_id FROM skus WHERE site_id = ?
    AND sku_id IN (SELECT value FROM json_each(?))`).pluck()
  const insertOrder = db.prepare(`INSERT INTO orders (site_id, client_id, order_id, order_date, status_id,
    customer_id, ship_by_date, carrier_id, ship_dock, created_at, created_by)
    VALUES (?, NULL, ?, ?, 14, ?, ?, ?, ?, ?, 'bench') ON CONFLICT (site_id, order_id) DO NOTHING RETURNING id`)
  const insertLine = db.prepare("INSERT INTO order_lines (order_ref, line, sku_id, qty) VALUES (?, ?, ?, ?)")
  const create = db.transaction((site, order) => {
    if (order.customer_id !== null && customer.get(order.customer_id, site) === undefined) {
      throw invalid(`Invalid field customer_id: customer ${order.customer_id} does not exist`)
    }
    if (order.carrier_id !== null && carrier.get(order.carrier_id, site) === undefined) {
      throw invalid(`Invalid field carrier_id: carrier ${order.carrier_id} does not exist`)
    }
    const missing = missingSku(order, new Set(skus.all(site, JSON.stringify(order.lines.map((l) => l.sku_id)))))
    if (missing !== undefined) throw missing
    const inserted = insertOrder.get(
      site,
      order.order_id,
      order.order_date,
      order.customer_id,
      order.ship_by_date,
      order.carrier_id,
      order.ship_dock,
      new Date().toISOString()
    )
    if (inserted === undefined) throw exists(order.order_id)
    for (const line of order.lines) insertLine.run(inserted.id, line.line, line.sku_id, line.qty)
  }).immediate
  return {
    getOrder: async (site, orderId) => {
      const row = byId.get(site, orderId)
      if (row === undefined) throw notFound(orderId)
      return toOrder(row)
    },
    listOrders: async (site) => list.all(site).map(toOrder),
    createOrder: async (site, order) => create(site, order),
    close: async () => db.close()
  }
}

/** The same on a PostgreSQL pool of 10 connections (the engine's default), with named prepared statements. */
const pgStore = (url) => {
  const pool = new pg.Pool({ connectionString: url, max: 10 })
  const query = (client, name, text, values) => client.query({ name, text, values })
  return {
    getOrder: async (site, orderId) => {
      const { rows } = await query(pool, "by_id", `${pgSelect} WHERE o.site_id = $1 AND o.order_id = $2`, [
        site,
        orderId
      ])
      if (rows.length === 0) throw notFound(orderId)
      return toOrder(rows[0])
    },
    listOrders: async (site) => {
      const { rows } = await query(pool, "list", `${pgSelect} WHERE o.site_id = $1 ORDER BY o.id`, [site])
      return rows.map(toOrder)
    },
    createOrder: async (site, order) => {
      const client = await pool.connect()
      try {
        await client.query("BEGIN")
        if (order.customer_id !== null) {
          const { rows } = await query(client, "customer", "SELECT id FROM customers WHERE id = $1 AND site_id = $2", [
            order.customer_id,
            site
          ])
          if (rows.length === 0) {
            throw invalid(`Invalid field customer_id: customer ${order.customer_id} does not exist`)
          }
        }
        if (order.carrier_id !== null) {
          const { rows } = await query(client, "carrier", "SELECT id FROM carriers WHERE id = $1 AND site_id = $2", [
            order.carrier_id,
            site
          ])
          if (rows.length === 0) throw invalid(`Invalid field carrier_id: carrier ${order.carrier_id} does not exist`)
        }
        const skus = await query(
          client,
          "skus",
          `SELECT sku_id FROM skus
          WHERE site_id = $1 AND sku_id = ANY($2)`,
          [site, order.lines.map((l) => l.sku_id)]
        )
        const missing = missingSku(order, new Set(skus.rows.map((row) => row.sku_id)))
        if (missing !== undefined) throw missing
        const inserted = await query(
          client,
          "insert_order",
          `INSERT INTO orders (site_id, client_id, order_id,
          order_date, status_id, customer_id, ship_by_date, carrier_id, ship_dock, created_at, created_by)
          VALUES ($1, NULL, $2, $3, 14, $4, $5, $6, $7, $8, 'bench') ON CONFLICT (site_id, order_id) DO NOTHING
          RETURNING id`,
          [
            site,
            order.order_id,
            order.order_date,
            order.customer_id,
            order.ship_by_date,
            order.carrier_id,
            order.ship_dock,
            new Date().toISOString()
          ]
        )
        if (inserted.rows.length === 0) throw exists(order.order_id)
        if (order.lines.length > 0) {
          await query(
            client,
            "insert_lines",
            `INSERT INTO order_lines (order_ref, line, sku_id, qty)
            SELECT $1, * FROM unnest($2::int[], $3::text[], $4::int[])`,
            [
              inserted.rows[0].id,
              order.lines.map((l) => l.line),
              order.lines.map((l) => l.sku_id),
              order.lines.map((l) => l.qty)
            ]
          )
        }
        await client.query("COMMIT")
      } catch (error) {
        await client.query("ROLLBACK")
        throw error
      } finally {
        client.release()
      }
    },
    close: () => pool.end()
  }
}

/** The store of a `WMS_DATABASE_URL`-style address: `sqlite:<file>` or `postgres://…`. */
export const openStore = (database) =>
  database.startsWith("sqlite:") ? sqliteStore(database.slice("sqlite:".length)) : pgStore(database)

/** The status and `{message}` of a failure; anything unexpected is a 500 and is logged. */
export const failureOf = (error) => {
  if (error instanceof Failure) return { status: error.status, body: { message: error.message } }
  console.error(error)
  return { status: 500, body: { message: "Internal server error" } }
}
