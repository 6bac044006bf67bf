/**
 * The warehouse cycle benchmark's data: a deterministic receipt to put away (a pre-advice of
 * thousands of lines over a few hundred SKUs, some with full pallets, and Storage locations with
 * room for most of it by `max_tags`), and stock to move (contents at Storage locations, each moved
 * twice to a location of its own: the first move makes the content there, the second adds to it).
 * Seeded with direct SQL after the engine's own migrations ran once. Also the checks both sides
 * run after their clock stops: the same rows must come out of the engine and of its lower bound.
 */
import Database from "better-sqlite3"
import { createHash } from "node:crypto"
import pg from "pg"

/** The site `migrate` of the wave benchmark bootstraps (not imported: that module loads the whole engine). */
export const SITE = "main"
export const PRE_ADVICE_ID = "ASN-BENCH"
/** Every location holds this many tags (pallets or contents) at most: the only limit set. */
export const MAX_TAGS = 4
const RECEIPT_SKUS = 400
const FULL_PALLET = 48
const MOVE_SKUS = 500
const CONTENT_QTY = 20
const MOVE_QTY = 5
const CREATED_AT = "2025-06-01T08:00:00.000Z"
const CONTENTS_PER_COUNT = 10
/** The zone the count bench plans its counts in. */
export const COUNT_ZONE = "CZ"

/** A small seeded generator (mulberry32): the same data on every run and every store. */
const random = (seed) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

const pad = (n, width) => String(n).padStart(width, "0")

const sku = (skuId, qtyOnFullPallet) => ({ sku_id: skuId, qty_on_full_pallet: qtyOnFullPallet })

const storage = (locId, sequence) => ({ loc_id: locId, sequence })

/** How many putaway tasks `qty` makes: a full pallet each, then the rest. */
const tasksOf = (qty, pallet) => (pallet === null ? 1 : Math.floor(qty / pallet) + (qty % pallet > 0 ? 1 : 0))

/**
 * A pre-advice of `lines` lines, each of a random SKU of 400 (every fourth with 48 on a full
 * pallet, its lines of up to 120, so up to two pallets and a rest; the others up to 60), and
 * empty Storage locations with room for 90% of the tasks the receipt makes.
 */
export const generatePutaway = (lines) => {
  const next = random(20250311)
  const skus = Array.from(
    { length: RECEIPT_SKUS },
    (_, i) => sku(`P${pad(i + 1, 5)}`, i % 4 === 0 ? FULL_PALLET : null)
  )
  const preAdviceLines = []
  let tasks = 0
  for (let line = 1; line <= lines; line++) {
    const { qty_on_full_pallet, sku_id } = skus[Math.floor(next() * skus.length)]
    const qty = 1 + Math.floor(next() * (qty_on_full_pallet === null ? 60 : 120))
    preAdviceLines.push({ line, sku_id, qty })
    tasks += tasksOf(qty, qty_on_full_pallet)
  }
  const locations = Array.from(
    { length: Math.floor((tasks * 0.9) / MAX_TAGS) },
    (_, i) => storage(`S-${pad(i + 1, 5)}`, i + 1)
  )
  return { skus, locations, lines: preAdviceLines, contents: [], faces: [] }
}

/**
 * Stock for `moves` moves: half as many contents of 20, each alone at a Storage location `A-n`,
 * and as many empty Storage locations `B-n`.
 */
export const generateMoves = (moves) => {
  const sources = Math.ceil(moves / 2)
  const skus = Array.from({ length: MOVE_SKUS }, (_, i) => sku(`M${pad(i + 1, 5)}`, null))
  const locations = []
  const contents = []
  for (let i = 1; i <= sources; i++) {
    locations.push(storage(`A-${pad(i, 5)}`, i), storage(`B-${pad(i, 5)}`, sources + i))
    contents.push({ sku_id: skus[i % MOVE_SKUS].sku_id, loc_id: `A-${pad(i, 5)}`, tag_id: `T${pad(i, 8)}` })
  }
  return { skus, locations, lines: [], contents, faces: [] }
}

/**
 * A zone `CZ` of `contents` contents to count: ten at each of its Storage locations `C-n`, each of
 * its own tag, over 500 SKUs.
 */
export const generateCount = (contents) => {
  const skus = Array.from({ length: MOVE_SKUS }, (_, i) => sku(`K${pad(i + 1, 5)}`, null))
  const locations = []
  const stock = []
  for (let i = 0; i < contents; i++) {
    const at = Math.floor(i / CONTENTS_PER_COUNT)
    if (i % CONTENTS_PER_COUNT === 0) locations.push({ ...storage(`C-${pad(at + 1, 5)}`, at + 1), zone: COUNT_ZONE })
    stock.push({ sku_id: skus[i % MOVE_SKUS].sku_id, loc_id: `C-${pad(at + 1, 5)}`, tag_id: `T${pad(i + 1, 8)}` })
  }
  return { skus, locations, lines: [], contents: stock, faces: [] }
}

/**
 * What each count line finds, in the order the locations' contents were seeded: most what the
 * snapshot expects, every seventh off by −2 to +2 (never 0).
 */
export const countedQty = (expected, index) =>
  index % 7 === 3 ? Math.max(0, expected + [-2, -1, 1, 2][Math.floor(index / 7) % 4]) : expected

/**
 * `faces` pick faces `F-n` (zone `FZ`), each keeping `R-n` between 10 and 50 and holding 5 of it:
 * all below min. The reserve: two contents of 30 of each SKU at a Storage location of its own, so
 * a replenishment takes the first whole and 15 of the second.
 */
export const generateReplenish = (faces) => {
  const skus = Array.from({ length: faces }, (_, i) => sku(`R${pad(i + 1, 5)}`, null))
  const locations = []
  const contents = []
  const settings = []
  for (let i = 1; i <= faces; i++) {
    const skuId = skus[i - 1].sku_id
    locations.push(
      { loc_id: `F-${pad(i, 5)}`, sequence: i, loc_type: "PickFace", zone: "FZ", max_tags: null },
      storage(`RS-${pad(i, 5)}`, faces + i)
    )
    contents.push(
      { sku_id: skuId, loc_id: `F-${pad(i, 5)}`, tag_id: `FT${pad(i, 7)}`, qty: 5 },
      { sku_id: skuId, loc_id: `RS-${pad(i, 5)}`, tag_id: `RA${pad(i, 7)}`, qty: 30 },
      { sku_id: skuId, loc_id: `RS-${pad(i, 5)}`, tag_id: `RB${pad(i, 7)}`, qty: 30 }
    )
    settings.push({ sku_id: skuId, loc_id: `F-${pad(i, 5)}`, min_qty: 10, max_qty: 50 })
  }
  return { skus, locations, lines: [], contents, faces: settings }
}

/**
 * The moves, from the source contents (content_id, loc_id) in content order: each content's 5 to
 * its `B` location, then around again, so the second move of each finds the content the first made.
 */
export const movePlan = (sources, moves) =>
  Array.from({ length: moves }, (_, i) => {
    const source = sources[i % sources.length]
    return { content_id: source.content_id, qty: MOVE_QTY, to_loc_id: source.loc_id.replace(/^A-/, "B-") }
  })

/** The rows to seed, as tables of columns and rows; the pre-advice lines follow their header. */
const tables = (data, adminId) => [
  {
    table: "skus",
    columns: ["site_id", "sku_id", "description", "expiry_sku", "obsolete", "new", "pick_method", "qty_on_full_pallet"],
    types: ["text", "text", "text", "int", "int", "int", "int", "int"],
    rows: data.skus.map((s) => [SITE, s.sku_id, `Article ${s.sku_id}`, 0, 0, 0, 1, s.qty_on_full_pallet])
  },
  {
    table: "locations",
    columns: ["site_id", "loc_id", "loc_type", "zone", "sequence", "max_tags", "status"],
    types: ["text", "text", "text", "text", "int", "int", "text"],
    rows: data.locations.map((l) => [
      SITE,
      l.loc_id,
      l.loc_type ?? "Storage",
      l.zone ?? null,
      l.sequence,
      l.max_tags === undefined ? MAX_TAGS : l.max_tags,
      "Active"
    ])
  },
  {
    table: "contents",
    columns: ["site_id", "sku_id", "loc_id", "tag_id", "qty", "qty_allocated", "qty_tasked_from", "created_at"],
    types: ["text", "text", "text", "text", "int", "int", "int", "text"],
    rows: data.contents.map((c) => [SITE, c.sku_id, c.loc_id, c.tag_id, c.qty ?? CONTENT_QTY, 0, 0, CREATED_AT])
  },
  {
    table: "pick_faces",
    columns: ["site_id", "sku_id", "loc_id", "min_qty", "max_qty"],
    types: ["text", "text", "text", "int", "int"],
    rows: data.faces.map((f) => [SITE, f.sku_id, f.loc_id, f.min_qty, f.max_qty])
  },
  ...(data.lines.length === 0 ? [] : [
    {
      table: "preadvices",
      columns: ["site_id", "pre_advice_id", "status_id", "created_at", "created_by"],
      types: ["text", "text", "int", "text", "text"],
      rows: [[SITE, PRE_ADVICE_ID, 1, CREATED_AT, adminId]],
      returning: "id"
    },
    {
      table: "preadvice_lines",
      columns: ["preadvice_ref", "line", "sku_id", "qty", "qty_received"],
      types: ["int", "int", "text", "int", "int"],
      rows: (ref) => data.lines.map((l) => [ref, l.line, l.sku_id, l.qty, 0])
    }
  ])
]

/** Seeds a migrated SQLite file. */
export const seedSqlite = (filename, data) => {
  const db = new Database(filename)
  db.pragma("journal_mode = WAL")
  const adminId = db.prepare("SELECT user_id FROM users LIMIT 1").get().user_id
  db.transaction(() => {
    let ref
    for (const { columns, returning, rows, table } of tables(data, adminId)) {
      const insert = db.prepare(`INSERT INTO ${table} (${columns.join(", ")})
        VALUES (${columns.map(() => "?").join(", ")})`)
      for (const row of typeof rows === "function" ? rows(ref) : rows) {
        const result = insert.run(...row)
        if (returning !== undefined) ref = Number(result.lastInsertRowid)
      }
    }
  })()
  db.pragma("wal_checkpoint(TRUNCATE)")
  db.close()
}

/** Seeds a migrated PostgreSQL database, one array-parameter insert per table. */
export const seedPg = async (url, data) => {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query("BEGIN")
    const [{ user_id: adminId }] = (await client.query("SELECT user_id FROM users LIMIT 1")).rows
    let ref
    for (const { columns, returning, rows, table, types } of tables(data, adminId)) {
      const values = typeof rows === "function" ? rows(ref) : rows
      if (values.length === 0) continue
      const arrays = columns.map((_, i) => values.map((row) => row[i]))
      const inserted = await client.query(
        `INSERT INTO ${table} (${columns.join(", ")})
         SELECT * FROM unnest(${types.map((type, i) => `$${i + 1}::${type}[]`).join(", ")})
         ${returning === undefined ? "" : `RETURNING ${returning}`}`,
        arrays
      )
      if (returning !== undefined) ref = inserted.rows[0][returning]
    }
    await client.query("COMMIT")
    await client.query("ANALYZE")
  } finally {
    await client.end()
  }
}

const count = (from) => `(SELECT CAST(count(*) AS INTEGER) FROM ${from})`
const total = (column, from) => `(SELECT CAST(COALESCE(sum(${column}), 0) AS INTEGER) FROM ${from})`

/**
 * The checks of a bench, as SQL both sides run once their clock stopped: `counts` gives one row of
 * figures, `rows` the rows whose digest must be the same on both sides (contents, tasks and the
 * ledger, without their times).
 */
export const checks = {
  putaway: {
    counts: `SELECT ${count("contents")} AS contents, ${total("qty", "contents")} AS qty_received,
      ${count("movement_tasks")} AS tasks, ${total("qty", "movement_tasks")} AS qty_tasked,
      ${total("qty_tasked_from", "contents")} AS qty_tasked_from,
      ${count("inventory_transactions WHERE transaction_type = 'Receipt'")} AS receipt_rows,
      ${count("inventory_transactions WHERE transaction_type = 'Task'")} AS task_rows,
      ${count("events WHERE event_type = 'preadvice_received'")} AS events,
      ${count("preadvice_lines WHERE qty_received = qty")} AS lines_received,
      ${count("preadvices WHERE status_id = 3")} AS preadvices_received`,
    rows: [
      "SELECT content_id, sku_id, loc_id, tag_id, qty, qty_tasked_from FROM contents ORDER BY content_id",
      `SELECT id, content_id, task_type, status_id, sku_id, tag_id, qty, from_loc_id, to_loc_id, final_loc_id
        FROM movement_tasks ORDER BY id`,
      `SELECT id, transaction_type, content_id, from_content_id, sku_id, tag_id, qty, from_loc_id, to_loc_id,
        final_loc_id, line_id, notes FROM inventory_transactions ORDER BY id`
    ]
  },
  moves: {
    counts: `SELECT ${count("contents")} AS contents, ${total("qty", "contents WHERE loc_id LIKE 'B-%'")} AS qty_moved,
      ${count("movement_tasks WHERE status_id = 20")} AS completed, ${
      count("movement_tasks WHERE status_id = 1")
    } AS open,
      ${total("qty_tasked_from", "contents")} AS qty_tasked_from,
      ${count("inventory_transactions WHERE transaction_type = 'Task'")} AS task_rows,
      ${count("inventory_transactions WHERE transaction_type = 'Move'")} AS move_rows`,
    rows: [
      "SELECT content_id, sku_id, loc_id, tag_id, qty, qty_tasked_from FROM contents ORDER BY content_id",
      `SELECT id, content_id, task_type, status_id, qty, from_loc_id, to_loc_id, final_loc_id
        FROM movement_tasks ORDER BY id`,
      `SELECT id, transaction_type, content_id, from_content_id, tag_id, qty, from_loc_id, to_loc_id, final_loc_id,
        notes FROM inventory_transactions ORDER BY id`
    ]
  }
}

checks.count = {
  counts: `SELECT ${count("counts WHERE status_id = 20")} AS completed, ${count("count_contents")} AS snapshot_rows,
      ${count("count_lines")} AS lines, ${
    count("inventory_transactions WHERE transaction_type = 'Count'")
  } AS count_rows,
      ${total("qty", "inventory_transactions WHERE transaction_type = 'Count'")} AS variance,
      ${count("locations WHERE last_counted IS NOT NULL AND status = 'Active'")} AS locations_counted,
      ${count("events WHERE event_type = 'count_completed'")} AS events`,
  rows: [
    "SELECT content_id, sku_id, loc_id, tag_id, qty, qty_allocated, qty_tasked_from FROM contents ORDER BY content_id",
    `SELECT id, loc_id, sku_id, status_id, count_index, location_status, reason_code, created_by,
      CASE WHEN released_at IS NULL THEN 0 ELSE 1 END AS released, CASE WHEN completed_at IS NULL THEN 0 ELSE 1 END AS done
      FROM counts ORDER BY id`,
    `SELECT count_id, count_index, content_id, client_id, sku_id, tag_id, expiry_date, expected, in_flight
      FROM count_contents ORDER BY count_id, count_index, content_id`,
    `SELECT count_id, count_index, sku_id, tag_key, client_id, expiry_date, qty_counted FROM count_lines
      ORDER BY count_id, count_index, sku_id, tag_key`,
    `SELECT loc_id, status, CASE WHEN last_counted IS NULL THEN 0 ELSE 1 END AS counted FROM locations ORDER BY loc_id`,
    `SELECT id, transaction_type, content_id, from_content_id, sku_id, tag_id, qty, from_loc_id, to_loc_id,
      final_loc_id, line_id, order_id, notes, reason_code FROM inventory_transactions ORDER BY id`
  ]
}

checks.replenish = {
  counts: `SELECT ${count("movement_tasks WHERE task_type = 'Replenish' AND status_id = 1")} AS tasks,
      ${total("qty", "movement_tasks")} AS qty_tasked, ${total("qty_tasked_from", "contents")} AS qty_tasked_from,
      ${count("inventory_transactions WHERE transaction_type = 'Task'")} AS task_rows,
      ${count("(SELECT DISTINCT to_loc_id FROM movement_tasks) faces")} AS faces_replenished,
      ${count("(SELECT DISTINCT content_id FROM movement_tasks) sources")} AS sources`,
  rows: [
    "SELECT content_id, sku_id, loc_id, tag_id, qty, qty_allocated, qty_tasked_from FROM contents ORDER BY content_id",
    `SELECT id, content_id, task_type, status_id, sku_id, tag_id, qty, from_loc_id, to_loc_id, final_loc_id, reason,
      created_by FROM movement_tasks ORDER BY id`,
    `SELECT id, transaction_type, content_id, from_content_id, sku_id, tag_id, qty, from_loc_id, to_loc_id,
      final_loc_id, notes FROM inventory_transactions ORDER BY id`
  ]
}

/** The digest of the result sets of `checks[bench].rows`, in order. */
export const digest = (resultSets) => {
  const hash = createHash("sha256")
  for (const rows of resultSets) {
    for (const row of rows) hash.update(`${JSON.stringify(Object.values(row))}\n`)
    hash.update("--\n")
  }
  return hash.digest("hex").slice(0, 16)
}
