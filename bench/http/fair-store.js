/**
 * The store of the fair peer (`fair.js`): the statements the engine's repositories run for
 * `GET /orders/:id`, `GET /orders` and `POST /orders` and for the checks behind every request (the
 * token's user, the `site` header), with the engine's texts (`packages/sql/src/SqlOrderRepository.ts`,
 * `SqlUserRepository.ts`, `SqlSiteRepository.ts`), prepared on better-sqlite3 and named on a pg pool
 * of 10 clients. One plain function per route; the write is one transaction (`BEGIN IMMEDIATE` on
 * SQLite, as the engine's transactor) holding the engine's checks in the engine's order. Answers are
 * the API's objects, built as `OrderView.ts` builds them.
 */
import Database from "better-sqlite3"
import pg from "pg"
import { statusDescriptions } from "./store.js"

/** A failure answered with its status and `{message}`. */
export class Failure extends Error {
  constructor(status, message) {
    super(message)
    this.status = status
  }
}

export const invalidField = (field, message) => new Failure(400, `Invalid field ${field}: ${message}`)

const released = 14
const maxLineNumber = 2147483647

// The order view of `OrderView.ts` -----------------------------------------------------------------

const utcInstant = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/

const dateTimeFormat = (timeZone) =>
  new Intl.DateTimeFormat("en-GB", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit"
  })

/** `YYYY-MM-DD HH:mm:ss` of a stored UTC ISO instant in `timeZone`, read off the text in UTC. */
const creationDateTime = (timeZone) => {
  const format = dateTimeFormat(timeZone)
  return (instant) => {
    if (timeZone === "UTC" && utcInstant.test(instant)) return `${instant.slice(0, 10)} ${instant.slice(11, 19)}`
    const p = {}
    for (const part of format.formatToParts(new Date(instant))) p[part.type] = part.value
    return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`
  }
}

const customerName = (row) =>
  row.customer_name === null
    ? ""
    : row.customer_town === null || row.customer_town.trim() === ""
    ? row.customer_name
    : `${row.customer_name}, ${row.customer_town}`

const orderView = (timeZone) => {
  const dateTime = creationDateTime(timeZone)
  const header = (row) => ({
    order_id: row.order_id,
    client_id: row.client_id,
    order_date: row.order_date,
    order_status: { id: row.status_id, description: statusDescriptions[row.status_id] },
    order_status_description: statusDescriptions[row.status_id] ?? `status ${row.status_id}`,
    customer: row.customer_id === null ? null : { id: row.customer_id, name: customerName(row) },
    ship_by_date: row.ship_by_date,
    carrier: row.carrier_name,
    ship_dock: row.ship_dock,
    creation_datetime: dateTime(row.created_at),
    created_by: row.created_by,
    order_type: row.to_site === null ? "Customer" : "Transfer",
    to_site: row.to_site,
    ...(row.backorder_of === null ? {} : { backorder_of: row.backorder_of })
  })
  // The lines come as a JSON array of `[line, sku_id, qty, qty_picked, qty_shipped, qty_backordered]`.
  const order = (row) => ({
    ...header(row),
    lines: row.lines === null ?
      [] :
      JSON.parse(row.lines).map(([line, sku_id, qty, qty_picked, qty_shipped, qty_backordered]) =>
        // `qty_backordered` only on a line that has some, as the engine shows it.
        qty_backordered === 0
          ? { order_id: row.order_id, line, sku_id, qty, qty_picked, qty_shipped }
          : { order_id: row.order_id, line, sku_id, qty, qty_picked, qty_shipped, qty_backordered }
      )
  })
  // The units come as a JSON array of `[id, sscc, unit_type, parent_id, weight, tracking_number]`.
  const shippingUnits = (units) => {
    if (units === null) return []
    const rows = JSON.parse(units)
    const ssccs = new Map(rows.map(([id, sscc]) => [id, sscc]))
    return rows.map(([, sscc, unit_type, parent_id, weight, tracking_number]) => ({
      sscc,
      unit_type,
      parent_sscc: parent_id === null ? null : ssccs.get(parent_id) ?? null,
      weight,
      tracking_number
    }))
  }
  const record = (row) => ({ ...order(row), shipping_units: shippingUnits(row.units) })
  return { header, order, record }
}

// The rules of `Orders.create` that need no statement -------------------------------------------------

/** `LineNumbering.assignLineNumbers` for a new order: the lines with their numbers, or the 409. */
const numberLines = (orderId, lines) => {
  const taken = new Set()
  let highest = 0
  for (const { line } of lines) {
    if (line === null || line === undefined) continue
    if (taken.has(line)) return new Failure(409, `Line ${line} of order ${orderId} already exists`)
    taken.add(line)
    if (line > highest) highest = line
  }
  const numbered = []
  for (const { line, qty, sku_id } of lines) {
    if (line === null || line === undefined) {
      if (highest >= maxLineNumber) return new Failure(409, `Order with OrderID ${orderId} has no line number left`)
      highest += 1
      numbered.push({ line: highest, sku_id, qty })
    } else numbered.push({ line, sku_id, qty })
  }
  return numbered
}

const missingSku = (lines, visible) => {
  const i = lines.findIndex((line) => !visible.has(line.sku_id))
  return i < 0 ? undefined : invalidField(`lines.${i}.sku_id`, `sku ${lines[i].sku_id} does not exist`)
}

const dock = (value) => (value === null || value.trim() === "" ? null : value)

/** The row of `INSERT INTO orders`, in the order of its parameters. */
const orderParams = (actor, order) => [
  actor.scope.site_id,
  actor.scope.client_id,
  order.order_id,
  order.order_date ?? null,
  released,
  order.customer_id ?? null,
  order.ship_by_date ?? null,
  order.carrier_id ?? null,
  dock(order.ship_dock ?? null),
  new Date(Date.now()).toISOString(),
  actor.userId
]

// The engine's statement texts -----------------------------------------------------------------------

const texts = (dialect) => {
  const headerColumns = `o.id AS ref, o.order_id, o.client_id, o.order_date, o.status_id,
      o.customer_id, c.name AS customer_name, c.town AS customer_town, o.ship_by_date,
      k.name AS carrier_name, o.ship_dock, o.created_at, o.created_by, o.backorder_of, o.to_site`
  const lineValues = "l.line, l.sku_id, l.qty, l.qty_picked, l.qty_shipped, l.qty_backordered"
  const linesColumn = `(SELECT ${
    dialect === "pg"
      ? `CAST(json_agg(json_build_array(${lineValues}) ORDER BY l.line) AS TEXT)`
      : `json_group_array(json_array(${lineValues}) ORDER BY l.line)`
  } FROM order_lines l WHERE l.order_ref = o.id) AS lines`
  const joins = `LEFT JOIN customers c ON c.id = o.customer_id
      LEFT JOIN carriers k ON k.id = o.carrier_id`
  const selectWithLines = `SELECT ${headerColumns}, ${linesColumn} FROM orders o ${joins}`
  // The single order's shipping units, as the engine reads them (packing): one probe of `shipping_units_order`.
  const unitValues = "u.id, u.sscc, u.unit_type, u.parent_id, u.weight, u.tracking_number"
  const unitsColumn = `(SELECT ${
    dialect === "pg"
      ? `CAST(json_agg(json_build_array(${unitValues}) ORDER BY u.id) AS TEXT)`
      : `json_group_array(json_array(${unitValues}) ORDER BY u.id)`
  } FROM shipping_units u WHERE u.order_ref = o.id HAVING count(*) > 0) AS units`
  const selectRecord = `SELECT ${headerColumns}, ${linesColumn}, ${unitsColumn} FROM orders o ${joins}`
  // The scope's rule as two texts, as the engine's `owned`: a site's scope sees all its clients' rows.
  const owned = (alias, text) => ({
    site: text(`${alias}.site_id = ?`),
    client: text(`${alias}.site_id = ? AND ${alias}.client_id = ?`)
  })
  const skuIn = dialect === "pg" ? "s.sku_id = ANY(CAST(? AS TEXT[]))" : "s.sku_id IN (SELECT value FROM json_each(?))"
  return {
    user: "SELECT * FROM users WHERE user_id = ?",
    site: "SELECT site_id, name, fulfillment FROM sites WHERE site_id = ?",
    client: `SELECT c.client_id, c.site_id, c.name, s.name AS site_name, s.fulfillment
      FROM clients c JOIN sites s ON s.site_id = c.site_id
      WHERE c.client_id = ?`,
    listWithLines: owned("o", (owner) => `${selectWithLines} WHERE ${owner} ORDER BY o.id`),
    listHeaders: owned(
      "o",
      (owner) => `SELECT ${headerColumns}, NULL AS lines FROM orders o ${joins} WHERE ${owner} ORDER BY o.id`
    ),
    findOrder: owned("o", (owner) => `${selectRecord} WHERE ${owner} AND o.order_id = ?`),
    insertOrder: `INSERT INTO orders
      (site_id, client_id, order_id, order_date, status_id, customer_id, ship_by_date, carrier_id, ship_dock,
        created_at, created_by)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (site_id, order_id) DO NOTHING RETURNING id`,
    insertLines: dialect === "pg"
      ? `INSERT INTO order_lines (order_ref, line, sku_id, qty)
          SELECT CAST(? AS INTEGER), l.line, l.sku_id, l.qty
          FROM unnest(CAST(? AS INTEGER[]), CAST(? AS TEXT[]), CAST(? AS INTEGER[])) AS l (line, sku_id, qty)
          ON CONFLICT (order_ref, line) DO NOTHING RETURNING line`
      : `INSERT INTO order_lines (order_ref, line, sku_id, qty)
          SELECT ?, value ->> 0, value ->> 1, value ->> 2 FROM json_each(?) WHERE true
          ON CONFLICT (order_ref, line) DO NOTHING RETURNING line`,
    customerVisible: owned("c", (owner) => `SELECT c.id FROM customers c WHERE ${owner} AND c.id = ?`),
    carrierVisible: "SELECT id FROM carriers WHERE id = ? AND site_id = ?",
    visibleSkus: owned("s", (owner) => `SELECT s.sku_id FROM skus s WHERE ${owner} AND ${skuIn}`)
  }
}

/** The parameters that start an owned statement's `WHERE`: the site, and the client of a client's scope. */
const ownerParams = (scope) => (scope.client_id === null ? [scope.site_id] : [scope.site_id, scope.client_id])
const ownedText = (statement, scope) => (scope.client_id === null ? statement.site : statement.client)

// The lines of the new order that were not written (a number taken meanwhile), as the engine's `insertLines`.
const lineTaken = (orderId, lines, rows) => {
  const inserted = new Set(rows.map((row) => row.line))
  const taken = lines.find((line) => !inserted.has(line.line))
  return taken === undefined ? undefined : new Failure(409, `Line ${taken.line} of order ${orderId} already exists`)
}

const orderExists = (orderId) => new Failure(409, `Order with OrderID ${orderId} already exists`)

// SQLite --------------------------------------------------------------------------------------------

const sqliteStore = (filename, timeZone) => {
  const db = new Database(filename)
  db.pragma("journal_mode = WAL")
  db.pragma("busy_timeout = 10000")
  db.pragma("foreign_keys = ON")
  db.pragma("synchronous = NORMAL")
  const sql = texts("sqlite")
  const owned = (statement) => ({ site: db.prepare(statement.site), client: db.prepare(statement.client) })
  const user = db.prepare(sql.user)
  const site = db.prepare(sql.site)
  const client = db.prepare(sql.client)
  const listWithLines = owned(sql.listWithLines)
  const listHeaders = owned(sql.listHeaders)
  const findOrder = owned(sql.findOrder)
  const insertOrder = db.prepare(sql.insertOrder)
  const insertLines = db.prepare(sql.insertLines)
  const customerVisible = owned(sql.customerVisible)
  const carrierVisible = db.prepare(sql.carrierVisible)
  const visibleSkus = owned(sql.visibleSkus)
  const begin = db.prepare("BEGIN IMMEDIATE")
  const commit = db.prepare("COMMIT")
  const rollback = db.prepare("ROLLBACK")
  const view = orderView(timeZone)

  const create = (actor, order) => {
    const { scope } = actor
    const lines = order.lines ?? []
    if (typeof order.customer_id === "number") {
      if (ownedText(customerVisible, scope).get(...ownerParams(scope), order.customer_id) === undefined) {
        throw invalidField("customer_id", `customer ${order.customer_id} does not exist`)
      }
    }
    if (typeof order.carrier_id === "number" && carrierVisible.get(order.carrier_id, scope.site_id) === undefined) {
      throw invalidField("carrier_id", `carrier ${order.carrier_id} does not exist`)
    }
    if (lines.length > 0) {
      const skus = JSON.stringify([...new Set(lines.map((line) => line.sku_id))])
      const visible = new Set(ownedText(visibleSkus, scope).all(...ownerParams(scope), skus).map((row) => row.sku_id))
      const missing = missingSku(lines, visible)
      if (missing !== undefined) throw missing
    }
    const numbered = numberLines(order.order_id, lines)
    if (numbered instanceof Failure) throw numbered
    const inserted = insertOrder.get(...orderParams(actor, order))
    if (inserted === undefined) throw orderExists(order.order_id)
    if (numbered.length > 0) {
      const rows = insertLines.all(
        inserted.id,
        JSON.stringify(numbered.map((line) => [line.line, line.sku_id, line.qty]))
      )
      const taken = lineTaken(order.order_id, numbered, rows)
      if (taken !== undefined) throw taken
    }
  }

  return {
    findUser: (userId) => user.get(userId),
    findSite: (siteId) => site.get(siteId),
    findClient: (clientId) => client.get(clientId),
    storedSecret: () => db.prepare("SELECT value FROM settings WHERE key = 'jwt_secret'").get()?.value,
    getOrder: (scope, orderId) => {
      const row = ownedText(findOrder, scope).get(...ownerParams(scope), orderId)
      return row === undefined ? undefined : view.record(row)
    },
    listOrders: (scope, withLines) =>
      withLines
        ? ownedText(listWithLines, scope).all(...ownerParams(scope)).map(view.order)
        : ownedText(listHeaders, scope).all(...ownerParams(scope)).map(view.header),
    createOrder: (actor, order) => {
      begin.run()
      try {
        create(actor, order)
        commit.run()
      } catch (error) {
        if (db.inTransaction) rollback.run()
        throw error
      }
    },
    close: async () => db.close()
  }
}

// PostgreSQL ----------------------------------------------------------------------------------------

/** `$1`, `$2`, … for each `?`, as the engine's `Prepared.numberPlaceholders`. */
const numberPlaceholders = (text) => {
  let index = 0
  return text.replace(/\?/g, () => `$${++index}`)
}

const pgStore = (url, timeZone) => {
  const pool = new pg.Pool({ connectionString: url, max: 10 })
  pool.on("error", () => {})
  const sql = texts("pg")
  let names = 0
  // A named statement: pg parses its text once per connection, then only binds and executes it.
  const named = (text) => ({ name: `fair_${names++}`, text: numberPlaceholders(text) })
  const owned = (statement) => ({ site: named(statement.site), client: named(statement.client) })
  const user = named(sql.user)
  const site = named(sql.site)
  const client = named(sql.client)
  const listWithLines = owned(sql.listWithLines)
  const listHeaders = owned(sql.listHeaders)
  const findOrder = owned(sql.findOrder)
  const insertOrder = named(sql.insertOrder)
  const insertLines = named(sql.insertLines)
  const customerVisible = owned(sql.customerVisible)
  const carrierVisible = named(sql.carrierVisible)
  const visibleSkus = owned(sql.visibleSkus)
  const view = orderView(timeZone)

  const rows = async (on, statement, values) =>
    (await on.query({ name: statement.name, text: statement.text, values })).rows
  const first = async (on, statement, values) => (await rows(on, statement, values))[0]

  const create = async (connection, actor, order) => {
    const { scope } = actor
    const lines = order.lines ?? []
    if (typeof order.customer_id === "number") {
      const found = await first(connection, ownedText(customerVisible, scope), [
        ...ownerParams(scope),
        order.customer_id
      ])
      if (found === undefined) throw invalidField("customer_id", `customer ${order.customer_id} does not exist`)
    }
    if (typeof order.carrier_id === "number") {
      if ((await first(connection, carrierVisible, [order.carrier_id, scope.site_id])) === undefined) {
        throw invalidField("carrier_id", `carrier ${order.carrier_id} does not exist`)
      }
    }
    if (lines.length > 0) {
      const skus = [...new Set(lines.map((line) => line.sku_id))]
      const found = await rows(connection, ownedText(visibleSkus, scope), [...ownerParams(scope), skus])
      const missing = missingSku(lines, new Set(found.map((row) => row.sku_id)))
      if (missing !== undefined) throw missing
    }
    const numbered = numberLines(order.order_id, lines)
    if (numbered instanceof Failure) throw numbered
    const inserted = await first(connection, insertOrder, orderParams(actor, order))
    if (inserted === undefined) throw orderExists(order.order_id)
    if (numbered.length > 0) {
      const written = await rows(connection, insertLines, [
        inserted.id,
        numbered.map((line) => line.line),
        numbered.map((line) => line.sku_id),
        numbered.map((line) => line.qty)
      ])
      const taken = lineTaken(order.order_id, numbered, written)
      if (taken !== undefined) throw taken
    }
  }

  return {
    findUser: (userId) => first(pool, user, [userId]),
    findSite: (siteId) => first(pool, site, [siteId]),
    findClient: (clientId) => first(pool, client, [clientId]),
    storedSecret: async () => (await pool.query("SELECT value FROM settings WHERE key = 'jwt_secret'")).rows[0]?.value,
    getOrder: async (scope, orderId) => {
      const row = await first(pool, ownedText(findOrder, scope), [...ownerParams(scope), orderId])
      return row === undefined ? undefined : view.record(row)
    },
    listOrders: async (scope, withLines) =>
      withLines
        ? (await rows(pool, ownedText(listWithLines, scope), ownerParams(scope))).map(view.order)
        : (await rows(pool, ownedText(listHeaders, scope), ownerParams(scope))).map(view.header),
    createOrder: async (actor, order) => {
      const connection = await pool.connect()
      // A client whose ROLLBACK failed may still be inside the transaction: it is closed, not reused.
      let broken
      try {
        await connection.query("BEGIN")
        await create(connection, actor, order)
        await connection.query("COMMIT")
      } catch (error) {
        await connection.query("ROLLBACK").catch((rollbackError) => (broken = rollbackError))
        throw error
      } finally {
        connection.release(broken)
      }
    },
    close: () => pool.end()
  }
}

/** The store of a `WMS_DATABASE_URL`: `sqlite:<file>` or `postgres://…`. */
export const openFairStore = (database, timeZone) =>
  database.startsWith("sqlite:") ? sqliteStore(database.slice("sqlite:".length), timeZone) : pgStore(database, timeZone)
