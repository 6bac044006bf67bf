/**
 * The lower bound of the warehouse cycle benchmark, in its own process: the rows the engine
 * writes, by hand-written SQL straight on the driver (better-sqlite3, pg), with the pragmas of the
 * SQLite store. It is a bound of the I/O, not a second engine: it trusts its input and checks
 * nothing the engine checks besides a source's available quantity.
 *
 * - `putaway`: one transaction reads the pre-advice, its SKUs' pallet sizes and the Storage
 *   locations with their free tags, places each line by a simple first-fit loop (full pallets,
 *   then the rest) and writes contents, Receipt rows, tasks and Task rows as bulk inserts
 *   (multi-row VALUES on SQLite, whole columns as arrays on PostgreSQL), the lines, the status and
 *   the `preadvice_received` event.
 * - `moves`: per move, a create transaction (lock the content, insert the task, raise
 *   `qty_tasked_from`, insert the Task row) and a confirm transaction (close the task, take from
 *   the source, add to or make the destination content, insert the Move row), as prepared
 *   statements.
 * - `count`: the transactions of the engine's API client (plan, release each, record each) with
 *   the fewest statements, bulk inserts for the counts, snapshots and lines.
 * - `replenish`: one transaction reading the faces' levels and the reserve in two statements,
 *   planning in memory and writing tasks, Task rows and reservations in bulk.
 */
import { formatDutchDateTime, Status, statusObject } from "@wms/core"
import Database from "better-sqlite3"
import { performance } from "node:perf_hooks"
import pg from "pg"
import { checks, COUNT_ZONE, countedQty, digest, movePlan, PRE_ADVICE_ID, SITE } from "./data.js"

const [database, bench, size] = [process.argv[2], process.argv[3], Number(process.argv[4])]

/** The columns each side writes, with their PostgreSQL types for array parameters. */
const columns = {
  contents: {
    site_id: "text",
    client_id: "text",
    sku_id: "text",
    loc_id: "text",
    tag_id: "text",
    expiry_date: "text",
    qty: "int",
    qty_allocated: "int",
    qty_tasked_from: "int",
    created_at: "text"
  },
  movement_tasks: {
    site_id: "text",
    client_id: "text",
    task_type: "text",
    status_id: "int",
    content_id: "int",
    sku_id: "text",
    tag_id: "text",
    qty: "int",
    from_loc_id: "text",
    to_loc_id: "text",
    final_loc_id: "text",
    created_by: "text",
    reason: "text",
    created_at: "text"
  },
  counts: {
    site_id: "text",
    loc_id: "text",
    sku_id: "text",
    blind: "int",
    assignee: "text",
    reason: "text",
    status_id: "int",
    count_index: "int",
    created_by: "text",
    created_at: "text"
  },
  count_contents: {
    count_id: "int",
    count_index: "int",
    content_id: "int",
    client_id: "text",
    sku_id: "text",
    tag_id: "text",
    expiry_date: "text",
    expected: "int",
    in_flight: "int"
  },
  count_lines: {
    count_id: "int",
    count_index: "int",
    sku_id: "text",
    tag_key: "text",
    client_id: "text",
    expiry_date: "text",
    qty_counted: "int"
  },
  inventory_transactions: {
    site_id: "text",
    client_id: "text",
    created_at: "text",
    transaction_type: "text",
    content_id: "int",
    from_loc_id: "text",
    to_loc_id: "text",
    final_loc_id: "text",
    sku_id: "text",
    qty: "int",
    tag_id: "text",
    order_id: "text",
    line_id: "int",
    notes: "text",
    from_content_id: "int",
    reason_code: "text"
  }
}

const names = (table) => Object.keys(columns[table])

/** A row as its values in the table's column order; a column the row lacks is null. */
const values = (table, row) => names(table).map((name) => row[name] ?? null)

/** `INSERT INTO table (columns) VALUES (…)` with `?` placeholders, the one-row text both drivers start from. */
const insertText = (table) =>
  `INSERT INTO ${table} (${names(table).join(", ")}) VALUES (${names(table).map(() => "?").join(", ")})`

const numbered = (text) => {
  let n = 0
  return text.replace(/\?/g, () => `$${++n}`)
}

/** A new content of the source's site, client, SKU, tag and expiry. */
const contentOf = (source, fields) => ({
  site_id: SITE,
  client_id: source.client_id,
  sku_id: source.sku_id,
  tag_id: source.tag_id,
  expiry_date: source.expiry_date,
  qty_allocated: 0,
  qty_tasked_from: 0,
  ...fields
})

/** A ledger row of the stock's owner, SKU and tag; final is where it goes. */
const ledgerOf = (stock, fields) => ({
  site_id: SITE,
  client_id: stock.client_id,
  sku_id: stock.sku_id,
  tag_id: stock.tag_id,
  final_loc_id: fields.to_loc_id,
  ...fields
})

/** Runs `work` on the clock: wall and CPU time of this process. */
const timed = async (work) => {
  const cpu = process.cpuUsage()
  const t0 = performance.now()
  const answer = await work()
  const ms = performance.now() - t0
  const { system, user } = process.cpuUsage(cpu)
  return { ...answer, ms, cpuMs: (user + system) / 1000 }
}

/**
 * Places the receipt, first fit in (sequence, loc_id) order: each task takes one tag of room, so
 * a location once full stays full and one cursor walks the locations.
 */
const place = (lines, palletOf, locations) => {
  const tasks = []
  const taskedFrom = lines.map(() => 0)
  let unplaced = 0
  let at = 0
  const next = () => {
    while (at < locations.length && locations[at].free <= 0) at++
    if (at === locations.length) return undefined
    locations[at].free--
    return locations[at].loc_id
  }
  lines.forEach((line, index) => {
    const pallet = palletOf.get(line.sku_id) ?? 0
    let rest = line.qty - line.qty_received
    const task = (qty) => {
      const to = next()
      if (to === undefined) return false
      tasks.push({ index, to, qty })
      taskedFrom[index] += qty
      rest -= qty
      return true
    }
    while (pallet > 0 && rest >= pallet && task(pallet));
    if (rest > 0) task(rest)
    unplaced += rest
  })
  return { tasks, taskedFrom, unplaced }
}

/** The rows of the receipt once its reads are done; the ids come from the inserts before. */
const receiptRows = (read, createdAt) => {
  const { adminId, firstTag, header, lines, locations, palletOf, receivingLocation } = read
  const { taskedFrom, tasks, unplaced } = place(lines, palletOf, locations)
  const contents = lines.map((line, i) =>
    contentOf({ client_id: line.client_id ?? header.client_id, sku_id: line.sku_id, expiry_date: null }, {
      loc_id: receivingLocation,
      tag_id: `T${String(firstTag + i).padStart(8, "0")}`,
      qty: line.qty - line.qty_received,
      qty_tasked_from: taskedFrom[i],
      created_at: createdAt
    })
  )
  const receipts = (contentIds) =>
    contents.map((c, i) =>
      ledgerOf(c, {
        created_at: createdAt,
        transaction_type: "Receipt",
        content_id: contentIds[i],
        from_loc_id: c.loc_id,
        to_loc_id: c.loc_id,
        qty: c.qty,
        line_id: lines[i].line,
        notes: `PreAdvice ${PRE_ADVICE_ID}`
      })
    )
  const taskRows = (contentIds) =>
    tasks.map(({ index, qty, to }) => ({
      site_id: SITE,
      client_id: contents[index].client_id,
      task_type: "Putaway",
      status_id: 1,
      content_id: contentIds[index],
      sku_id: contents[index].sku_id,
      tag_id: contents[index].tag_id,
      qty,
      from_loc_id: receivingLocation,
      to_loc_id: to,
      final_loc_id: to,
      created_by: adminId,
      created_at: createdAt
    }))
  const taskLedger = (taskRows, taskIds) =>
    taskRows.map((task, i) =>
      ledgerOf(task, {
        created_at: createdAt,
        transaction_type: "Task",
        content_id: task.content_id,
        from_loc_id: task.from_loc_id,
        to_loc_id: task.to_loc_id,
        qty: task.qty,
        notes: `Movement task ${taskIds[i]}`
      })
    )
  // The pre-advice as `GET /preadvices/:id` shows it, received.
  const event = JSON.stringify({
    pre_advice_id: PRE_ADVICE_ID,
    client_id: header.client_id,
    pre_advice_status: statusObject(Status.Received),
    supplier: null,
    creation_datetime: formatDutchDateTime(header.created_at, "UTC"),
    created_by: header.created_by,
    lines: lines.map((l) => ({
      pre_advice_id: PRE_ADVICE_ID,
      line: l.line,
      sku_id: l.sku_id,
      qty: l.qty,
      qty_received: l.qty,
      pallet_id: l.pallet_id,
      client_id: l.client_id ?? header.client_id
    }))
  })
  return { contents, receipts, taskRows, taskLedger, event, unplaced }
}

const ascendingIds = (rows, key) => rows.map((row) => row[key]).sort((a, b) => a - b)

/** The Task row of a move task just made. */
const taskEntry = (source, move, taskId, createdAt) =>
  ledgerOf(source, {
    created_at: createdAt,
    transaction_type: "Task",
    content_id: source.content_id,
    from_loc_id: source.loc_id,
    to_loc_id: move.to_loc_id,
    qty: move.qty,
    notes: `Movement task ${taskId}`
  })

/** The move task of `move` from the source. */
const moveTask = (source, move, adminId, createdAt) => ({
  site_id: SITE,
  client_id: source.client_id,
  task_type: "Move",
  status_id: 1,
  content_id: source.content_id,
  sku_id: source.sku_id,
  tag_id: source.tag_id,
  qty: move.qty,
  from_loc_id: source.loc_id,
  to_loc_id: move.to_loc_id,
  final_loc_id: move.to_loc_id,
  created_by: adminId,
  created_at: createdAt
})

/** The row of a confirmed task: the destination content receives from the source. */
const movedEntry = (task, source, destinationId, createdAt) =>
  ledgerOf(source, {
    created_at: createdAt,
    transaction_type: task.task_type,
    content_id: destinationId,
    from_content_id: task.content_id,
    from_loc_id: task.from_loc_id,
    to_loc_id: task.to_loc_id,
    qty: task.qty,
    notes: `Movement task ${task.id}`
  })

const unavailable = (source, move) => {
  if (source.qty - source.qty_allocated - source.qty_tasked_from < move.qty) {
    throw new Error(`content ${source.content_id} has not ${move.qty} available`)
  }
}

// The statements both stores run, SQLite's way; PostgreSQL numbers the placeholders and locks.
const text = {
  receiptHeader: `SELECT id, client_id, created_at, created_by FROM preadvices
    WHERE site_id = ? AND pre_advice_id = ?`,
  receiptLines: `SELECT line, sku_id, qty, qty_received, client_id, pallet_id FROM preadvice_lines
    WHERE preadvice_ref = ? ORDER BY line`,
  receivingLocation: "SELECT receiving_location FROM sites WHERE site_id = ?",
  freeTags: `SELECT l.loc_id, l.max_tags
      - (SELECT count(DISTINCT c.tag_id) FROM contents c WHERE c.site_id = l.site_id AND c.loc_id = l.loc_id
          AND c.qty > 0)
      - (SELECT count(*) FROM movement_tasks t WHERE t.site_id = l.site_id AND t.to_loc_id = l.loc_id
          AND t.status_id = 1) AS free
    FROM locations l WHERE l.site_id = ? AND l.loc_type = 'Storage' AND l.status IN ('Active', 'Blocked Out')
    ORDER BY l.sequence, l.loc_id`,
  tags: `INSERT INTO counters (site_id, name, value) VALUES (?, 'tag', ?)
    ON CONFLICT (site_id, name) DO UPDATE SET value = counters.value + excluded.value RETURNING value`,
  linesReceived: "UPDATE preadvice_lines SET qty_received = qty WHERE preadvice_ref = ?",
  received: "UPDATE preadvices SET status_id = ? WHERE id = ?",
  event: "INSERT INTO events (event_type, site_id, client_id, created_at, data) VALUES (?, ?, ?, ?, ?)",
  lock: "SELECT * FROM contents WHERE content_id = ?",
  task: `${insertText("movement_tasks")} RETURNING id`,
  reserve: "UPDATE contents SET qty_tasked_from = qty_tasked_from + ? WHERE content_id = ?",
  ledger: insertText("inventory_transactions"),
  close: `UPDATE movement_tasks SET status_id = 20, final_loc_id = to_loc_id WHERE id = ? AND status_id = 1
    RETURNING id, content_id, task_type, qty, from_loc_id, to_loc_id`,
  take: `UPDATE contents SET qty = qty - ?, qty_tasked_from = qty_tasked_from - ? WHERE content_id = ?
    RETURNING client_id, sku_id, tag_id, expiry_date, created_at`,
  destination: `SELECT content_id FROM contents WHERE site_id = ? AND client_id IS NOT DISTINCT FROM ?
    AND sku_id = ? AND loc_id = ? AND tag_id = ? AND expiry_date IS NOT DISTINCT FROM ? ORDER BY content_id LIMIT 1`,
  add: "UPDATE contents SET qty = qty + ? WHERE content_id = ?",
  content: `${insertText("contents")} RETURNING content_id`
}

/** Multi-row INSERTs of at most 16,000 parameters each on SQLite, as the engine's bulk inserts. */
const sqliteInserter = (db) => {
  const statements = new Map()
  return (table, rows, returning) => {
    const returned = []
    const size = Math.floor(16_000 / names(table).length)
    for (let start = 0; start < rows.length; start += size) {
      const chunk = rows.slice(start, start + size)
      const key = `${table} ${chunk.length}`
      let statement = statements.get(key)
      if (statement === undefined) {
        const tuple = `(${names(table).map(() => "?").join(", ")})`
        statement = db.prepare(
          `INSERT INTO ${table} (${names(table).join(", ")}) VALUES ${chunk.map(() => tuple).join(", ")}${
            returning === undefined ? "" : ` RETURNING ${returning}`
          }`
        )
        statements.set(key, statement)
      }
      const params = chunk.flatMap((row) => values(table, row))
      if (returning === undefined) statement.run(params)
      else returned.push(...statement.all(params))
    }
    return returned
  }
}

const sqlitePutaway = (db) => {
  const adminId = db.prepare("SELECT user_id FROM users LIMIT 1").pluck().get()
  const insert = sqliteInserter(db)
  return timed(() => {
    db.exec("BEGIN IMMEDIATE")
    const header = db.prepare(text.receiptHeader).get(SITE, PRE_ADVICE_ID)
    const lines = db.prepare(text.receiptLines).all(header.id)
    const skuIds = JSON.stringify([...new Set(lines.map((l) => l.sku_id))])
    const palletOf = new Map(
      db.prepare(`SELECT sku_id, qty_on_full_pallet FROM skus
        WHERE site_id = ? AND sku_id IN (SELECT value FROM json_each(?))`).raw().all(SITE, skuIds)
    )
    const lastTag = db.prepare(text.tags).pluck().get(SITE, lines.length)
    const createdAt = new Date().toISOString()
    const rows = receiptRows({
      adminId,
      firstTag: lastTag - lines.length + 1,
      header,
      lines,
      locations: db.prepare(text.freeTags).all(SITE),
      palletOf,
      receivingLocation: db.prepare(text.receivingLocation).pluck().get(SITE)
    }, createdAt)
    const contentIds = ascendingIds(insert("contents", rows.contents, "content_id"), "content_id")
    insert("inventory_transactions", rows.receipts(contentIds))
    const tasks = rows.taskRows(contentIds)
    const taskIds = ascendingIds(insert("movement_tasks", tasks, "id"), "id")
    insert("inventory_transactions", rows.taskLedger(tasks, taskIds))
    db.prepare(text.linesReceived).run(header.id)
    db.prepare(text.received).run(Status.Received, header.id)
    db.prepare(text.event).run("preadvice_received", SITE, header.client_id, createdAt, rows.event)
    db.exec("COMMIT")
    return { unplaced: rows.unplaced }
  })
}

const sqliteMoves = (db, plan) => {
  const adminId = db.prepare("SELECT user_id FROM users LIMIT 1").pluck().get()
  const statement = Object.fromEntries(Object.entries(text).map(([name, sql]) => [name, db.prepare(sql)]))
  return timed(() => {
    for (const move of plan) {
      db.exec("BEGIN IMMEDIATE")
      let createdAt = new Date().toISOString()
      const source = statement.lock.get(move.content_id)
      unavailable(source, move)
      const taskId = statement.task.get(values("movement_tasks", moveTask(source, move, adminId, createdAt))).id
      statement.reserve.run(move.qty, source.content_id)
      statement.ledger.run(values("inventory_transactions", taskEntry(source, move, taskId, createdAt)))
      db.exec("COMMIT")

      db.exec("BEGIN IMMEDIATE")
      createdAt = new Date().toISOString()
      const task = statement.close.get(taskId)
      const from = statement.take.get(task.qty, task.qty, task.content_id)
      const found = statement.destination.get(
        SITE,
        from.client_id,
        from.sku_id,
        task.to_loc_id,
        from.tag_id,
        from.expiry_date
      )
      let destinationId = found?.content_id
      if (destinationId !== undefined) statement.add.run(task.qty, destinationId)
      else {
        const made = contentOf(from, { loc_id: task.to_loc_id, qty: task.qty, created_at: from.created_at })
        destinationId = statement.content.get(values("contents", made)).content_id
      }
      statement.ledger.run(values("inventory_transactions", movedEntry(task, from, destinationId, createdAt)))
      db.exec("COMMIT")
    }
    return {}
  })
}

/**
 * The statements of the count and replenish bounds on either store: `all(text, params, lock)` runs
 * a prepared statement (SQLite's `?` placeholders; on PostgreSQL numbered, with `lock` appended)
 * and answers its rows; `insert` is the store's bulk insert.
 */
const sqliteDriver = (db) => {
  const prepared = new Map()
  const statement = (sql) => {
    let found = prepared.get(sql)
    if (found === undefined) prepared.set(sql, found = db.prepare(sql))
    return found
  }
  return {
    all: (sql, params = []) => {
      const prepared = statement(sql)
      if (prepared.reader) return prepared.all(params)
      prepared.run(params)
      return []
    },
    begin: () => db.exec("BEGIN IMMEDIATE"),
    commit: () => db.exec("COMMIT"),
    insert: sqliteInserter(db),
    /** Adds to the `qty_tasked_from` of contents, one statement each. */
    reserve: (taken) => {
      const statement = db.prepare("UPDATE contents SET qty_tasked_from = qty_tasked_from + ? WHERE content_id = ?")
      for (const [contentId, qty] of taken) statement.run(qty, contentId)
    },
    forUpdate: ""
  }
}

const pgDriver = (client) => {
  const names = new Map()
  return {
    all: async (sql, params = [], lock = "") => {
      const text = `${numbered(sql)}${lock}`
      let name = names.get(text)
      if (name === undefined) names.set(text, name = `s${names.size}`)
      return (await client.query({ name, text, values: params })).rows
    },
    begin: () => client.query("BEGIN"),
    commit: () => client.query("COMMIT"),
    insert: pgInserter(client),
    /** Adds to the `qty_tasked_from` of contents, whole columns as array parameters. */
    reserve: (taken) =>
      client.query(
        `UPDATE contents c SET qty_tasked_from = c.qty_tasked_from + u.qty
        FROM unnest($1::int[], $2::int[]) AS u (content_id, qty) WHERE c.content_id = u.content_id`,
        [[...taken.keys()], [...taken.values()]]
      ),
    forUpdate: " FOR UPDATE"
  }
}

const countText = {
  candidates: `SELECT l.loc_id FROM locations l WHERE l.site_id = ? AND l.zone = ?
    AND NOT EXISTS (SELECT 1 FROM counts c WHERE c.site_id = l.site_id AND c.loc_id = l.loc_id AND c.status_id IN (1, 22, 23))
    ORDER BY CASE WHEN l.last_counted IS NULL THEN 0 ELSE 1 END, l.last_counted, l.loc_id LIMIT ?`,
  lockCount: "SELECT id, loc_id, status_id, count_index FROM counts WHERE id = ?",
  contentsAt: `SELECT content_id, client_id, sku_id, tag_id, expiry_date, qty FROM contents
    WHERE site_id = ? AND loc_id = ? AND qty > 0 ORDER BY content_id`,
  lockLocation: "SELECT status FROM locations WHERE site_id = ? AND loc_id = ?",
  setLocation: "UPDATE locations SET status = ? WHERE site_id = ? AND loc_id = ?",
  released: "UPDATE counts SET status_id = 22, location_status = ?, released_at = ? WHERE id = ?",
  sheet: `SELECT cc.content_id, cc.client_id, cc.sku_id, cc.tag_id, cc.expiry_date, cc.expected, cc.in_flight,
      c.loc_id, c.location_status
    FROM count_contents cc JOIN counts c ON c.id = cc.count_id AND c.count_index = cc.count_index
    WHERE cc.count_id = ? ORDER BY cc.content_id`,
  setQty: "UPDATE contents SET qty = ? WHERE content_id = ?",
  counted: "UPDATE locations SET status = ?, last_counted = ? WHERE site_id = ? AND loc_id = ?",
  completed: "UPDATE counts SET status_id = 20, reason_code = ?, completed_at = ? WHERE id = ?",
  event: text.event
}

const byteOrder = (a, b) => (a < b ? -1 : a > b ? 1 : 0)

/**
 * The count of a zone as the engine's API client does it: one transaction opening a count per
 * location of the zone, one releasing each (lock it, snapshot the contents, the location Counting),
 * and per count the sheet read, then one transaction recording its lines and applying them (the
 * lines, a Count row and the new quantity per changed content, the location back and counted, the
 * count Complete, its event).
 */
const rawCount = async (driver, adminId) => {
  const { all, begin, commit, forUpdate, insert } = driver
  return timed(async () => {
    await begin()
    const locIds = (await all(countText.candidates, [SITE, COUNT_ZONE, size / 10])).map((row) => row.loc_id)
    const createdAt = new Date().toISOString()
    const ids = (await insert(
      "counts",
      locIds.map((loc_id) => ({
        site_id: SITE,
        loc_id,
        blind: 0,
        status_id: 1,
        count_index: 1,
        created_by: adminId,
        created_at: createdAt
      })),
      "id"
    )).map((row) => row.id).sort((a, b) => a - b)
    await commit()

    for (const id of ids) {
      await begin()
      const [count] = await all(countText.lockCount, [id], forUpdate)
      const contents = await all(countText.contentsAt, [SITE, count.loc_id], forUpdate)
      const [location] = await all(countText.lockLocation, [SITE, count.loc_id], forUpdate)
      await insert(
        "count_contents",
        contents.map((c) => ({ ...c, count_id: id, count_index: count.count_index, expected: c.qty, in_flight: 0 }))
      )
      await all(countText.setLocation, ["Counting", SITE, count.loc_id])
      await all(countText.released, [location.status, new Date().toISOString(), id])
      await commit()
    }

    for (const id of ids) {
      const sheet = (await all(countText.sheet, [id])).sort((a, b) =>
        byteOrder(a.sku_id, b.sku_id) || byteOrder(a.tag_id, b.tag_id)
      )
      const lines = sheet.map((c, i) => ({ ...c, qty_counted: countedQty(c.expected, id * 10 + i) }))
      await begin()
      const [count] = await all(countText.lockCount, [id], forUpdate)
      const completedAt = new Date().toISOString()
      await insert(
        "count_lines",
        lines.map((line) => ({ ...line, count_id: id, count_index: count.count_index, tag_key: line.tag_id }))
      )
      const entries = []
      for (const line of lines.filter((l) => l.qty_counted !== l.expected + l.in_flight)) {
        await all(countText.setQty, [line.qty_counted, line.content_id])
        entries.push(ledgerOf(line, {
          created_at: completedAt,
          transaction_type: "Count",
          content_id: line.content_id,
          from_loc_id: count.loc_id,
          to_loc_id: count.loc_id,
          qty: line.qty_counted - line.expected - line.in_flight,
          notes: `Count ${id}`,
          reason_code: "Miscount"
        }))
      }
      await insert("inventory_transactions", entries)
      await all(countText.counted, [sheet[0]?.location_status ?? "Active", completedAt, SITE, count.loc_id])
      await all(countText.completed, ["Miscount", completedAt, id])
      const data = JSON.stringify({
        id,
        loc_id: count.loc_id,
        status: "Complete",
        status_id: 20,
        reason_code: "Miscount",
        lines: lines.map((l) => ({
          sku_id: l.sku_id,
          tag_id: l.tag_id,
          client_id: l.client_id,
          qty_counted: l.qty_counted,
          expected: l.expected,
          in_flight: l.in_flight,
          variance: l.qty_counted - l.expected - l.in_flight,
          within_threshold: true
        }))
      })
      await all(countText.event, ["count_completed", SITE, null, completedAt, data])
      await commit()
    }
    return {}
  })
}

const replenishText = {
  faces: `SELECT f.sku_id, f.loc_id, f.min_qty, f.max_qty,
      COALESCE(c.qty, 0) - COALESCE(c.allocated, 0) + COALESCE(t.inbound, 0) AS level, COALESCE(t.replenishing, 0) AS replenishing
    FROM pick_faces f
    JOIN locations l ON l.site_id = f.site_id AND l.loc_id = f.loc_id AND l.loc_type = 'PickFace'
    LEFT JOIN (SELECT sku_id, loc_id, sum(qty) AS qty, sum(qty_allocated) AS allocated FROM contents WHERE site_id = ?
      GROUP BY sku_id, loc_id) c ON c.sku_id = f.sku_id AND c.loc_id = f.loc_id
    LEFT JOIN (SELECT sku_id, to_loc_id, sum(qty) AS inbound,
        sum(CASE WHEN task_type = 'Replenish' THEN qty ELSE 0 END) AS replenishing
      FROM movement_tasks WHERE site_id = ? AND status_id = 1 GROUP BY sku_id, to_loc_id) t
      ON t.sku_id = f.sku_id AND t.to_loc_id = f.loc_id
    WHERE f.site_id = ?`,
  reserve: `SELECT c.* FROM contents c
    JOIN locations l ON l.site_id = c.site_id AND l.loc_id = c.loc_id AND l.loc_type = 'Storage'
      AND l.status IN ('Active', 'Blocked In')
    WHERE c.site_id = ? AND c.qty - c.qty_allocated - c.qty_tasked_from > 0 ORDER BY c.content_id`
}

/** FEFO: the earlier expiry first, no expiry last, then the older, then the lower content id. */
const fefo = (a, b) =>
  a.expiry_date !== b.expiry_date
    ? (a.expiry_date === null ? 1 : b.expiry_date === null ? -1 : byteOrder(a.expiry_date, b.expiry_date))
    : byteOrder(a.created_at, b.created_at) || a.content_id - b.content_id

/**
 * The replenishment of every face below min in one transaction: the faces with their levels, the
 * reserve locked, each face's quantity taken whole source by source in FEFO order (the last one
 * split), then the tasks, their Task rows and the sources' `qty_tasked_from` in bulk.
 */
const rawReplenish = async (driver, adminId) => {
  const { all, begin, commit, forUpdate, insert } = driver
  return timed(async () => {
    await begin()
    const faces = (await all(replenishText.faces, [SITE, SITE, SITE])).sort((a, b) =>
      byteOrder(a.loc_id, b.loc_id) || byteOrder(a.sku_id, b.sku_id)
    )
    const reserve = await all(replenishText.reserve, [SITE], forUpdate === "" ? "" : " FOR UPDATE OF c")
    const today = new Date().toISOString().slice(0, 10)
    const sources = new Map()
    for (const content of reserve) {
      if (content.expiry_date !== null && content.expiry_date < today) continue
      const of = sources.get(content.sku_id) ?? []
      of.push({ ...content, available: content.qty - content.qty_allocated - content.qty_tasked_from })
      sources.set(content.sku_id, of)
    }
    for (const of of sources.values()) of.sort(fefo)
    const createdAt = new Date().toISOString()
    const tasks = []
    for (const face of faces) {
      const level = Number(face.level)
      if (Number(face.replenishing) > 0 || level >= face.min_qty) continue
      let rest = face.max_qty - level
      for (const source of sources.get(face.sku_id) ?? []) {
        if (rest === 0) break
        const qty = Math.min(source.available, rest)
        if (qty === 0) break
        source.available -= qty
        rest -= qty
        tasks.push(moveTask(source, { qty, to_loc_id: face.loc_id }, adminId, createdAt))
      }
    }
    for (const task of tasks) task.task_type = "Replenish"
    const ids = (await insert("movement_tasks", tasks, "id")).map((row) => row.id).sort((a, b) => a - b)
    await insert(
      "inventory_transactions",
      tasks.map((task, i) => taskEntry({ ...task, loc_id: task.from_loc_id }, task, ids[i], createdAt))
    )
    const taken = new Map()
    for (const task of tasks) taken.set(task.content_id, (taken.get(task.content_id) ?? 0) + task.qty)
    await driver.reserve(taken)
    await commit()
    return {}
  })
}

const sqlite = async (filename) => {
  const db = new Database(filename)
  db.pragma("journal_mode = WAL")
  db.pragma("busy_timeout = 10000")
  db.pragma("foreign_keys = ON")
  db.pragma("synchronous = NORMAL")
  try {
    const plan = bench === "moves"
      ? movePlan(db.prepare("SELECT content_id, loc_id FROM contents ORDER BY content_id").all(), size)
      : []
    const adminId = db.prepare("SELECT user_id FROM users LIMIT 1").pluck().get()
    const result = await ({
      putaway: () => sqlitePutaway(db),
      moves: () => sqliteMoves(db, plan),
      count: () => rawCount(sqliteDriver(db), adminId),
      replenish: () => rawReplenish(sqliteDriver(db), adminId)
    })[bench]()
    const peakRssKiB = process.resourceUsage().maxRSS
    const counts = db.prepare(checks[bench].counts).get()
    const rows = checks[bench].rows.map((sql) => db.prepare(sql).all())
    return { ...result, peakRssKiB, counts, digest: digest(rows) }
  } finally {
    db.close()
  }
}

/** Runs a statement of `text` as a named prepared statement; answers its rows. */
const pgStatements = (client) => {
  const prepared = Object.fromEntries(Object.entries(text).map(([name, sql]) => [name, numbered(sql)]))
  return (name, params, lock = "") =>
    client.query({ name: `${name}${lock}`, text: `${prepared[name]}${lock}`, values: params }).then((r) => r.rows)
}

/** Whole columns as array parameters on PostgreSQL: one statement per table, the fastest way short of COPY. */
const pgInserter = (client) => async (table, rows, returning) =>
  rows.length === 0 ? [] : (await client.query(
    `INSERT INTO ${table} (${names(table).join(", ")})
      SELECT * FROM unnest(${Object.values(columns[table]).map((type, i) => `$${i + 1}::${type}[]`).join(", ")})
      ${returning === undefined ? "" : `RETURNING ${returning}`}`,
    names(table).map((name) => rows.map((row) => row[name] ?? null))
  )).rows

const pgPutaway = async (client) => {
  const run = pgStatements(client)
  const rowsOf = async (sql, params) => (await client.query(sql, params)).rows
  const insert = pgInserter(client)
  const [{ user_id: adminId }] = await rowsOf("SELECT user_id FROM users LIMIT 1")
  return timed(async () => {
    await client.query("BEGIN")
    const [header] = await run("receiptHeader", [SITE, PRE_ADVICE_ID], " FOR UPDATE")
    const lines = await run("receiptLines", [header.id])
    const skuIds = [...new Set(lines.map((l) => l.sku_id))]
    const palletOf = new Map(
      (await rowsOf("SELECT sku_id, qty_on_full_pallet FROM skus WHERE site_id = $1 AND sku_id = ANY($2::text[])", [
        SITE,
        skuIds
      ])).map((s) => [s.sku_id, s.qty_on_full_pallet])
    )
    const [{ receiving_location }] = await run("receivingLocation", [SITE])
    const locations = await run("freeTags", [SITE], " FOR UPDATE OF l")
    const [{ value: lastTag }] = await run("tags", [SITE, lines.length])
    const createdAt = new Date().toISOString()
    const rows = receiptRows({
      adminId,
      firstTag: lastTag - lines.length + 1,
      header,
      lines,
      locations: locations.map((l) => ({ loc_id: l.loc_id, free: Number(l.free) })),
      palletOf,
      receivingLocation: receiving_location
    }, createdAt)
    const contentIds = ascendingIds(await insert("contents", rows.contents, "content_id"), "content_id")
    await insert("inventory_transactions", rows.receipts(contentIds))
    const tasks = rows.taskRows(contentIds)
    const taskIds = ascendingIds(await insert("movement_tasks", tasks, "id"), "id")
    await insert("inventory_transactions", rows.taskLedger(tasks, taskIds))
    await run("linesReceived", [header.id])
    await run("received", [Status.Received, header.id])
    await run("event", ["preadvice_received", SITE, header.client_id, createdAt, rows.event])
    await client.query("COMMIT")
    return { unplaced: rows.unplaced }
  })
}

const pgMoves = async (client, plan) => {
  const run = pgStatements(client)
  const [{ user_id: adminId }] = (await client.query("SELECT user_id FROM users LIMIT 1")).rows
  return timed(async () => {
    for (const move of plan) {
      await client.query("BEGIN")
      let createdAt = new Date().toISOString()
      const [source] = await run("lock", [move.content_id], " FOR UPDATE")
      unavailable(source, move)
      const [{ id: taskId }] = await run("task", values("movement_tasks", moveTask(source, move, adminId, createdAt)))
      await run("reserve", [move.qty, source.content_id])
      await run("ledger", values("inventory_transactions", taskEntry(source, move, taskId, createdAt)))
      await client.query("COMMIT")

      await client.query("BEGIN")
      createdAt = new Date().toISOString()
      const [task] = await run("close", [taskId])
      const [from] = await run("take", [task.qty, task.qty, task.content_id])
      const [found] = await run(
        "destination",
        [SITE, from.client_id, from.sku_id, task.to_loc_id, from.tag_id, from.expiry_date],
        " FOR UPDATE"
      )
      let destinationId = found?.content_id
      if (destinationId !== undefined) await run("add", [task.qty, destinationId])
      else {
        const made = contentOf(from, { loc_id: task.to_loc_id, qty: task.qty, created_at: from.created_at })
        destinationId = (await run("content", values("contents", made)))[0].content_id
      }
      await run("ledger", values("inventory_transactions", movedEntry(task, from, destinationId, createdAt)))
      await client.query("COMMIT")
    }
    return {}
  })
}

const postgres = async (url) => {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    const plan = bench === "moves"
      ? movePlan((await client.query("SELECT content_id, loc_id FROM contents ORDER BY content_id")).rows, size)
      : []
    const [{ user_id: adminId }] = (await client.query("SELECT user_id FROM users LIMIT 1")).rows
    const result = await ({
      putaway: () => pgPutaway(client),
      moves: () => pgMoves(client, plan),
      count: () => rawCount(pgDriver(client), adminId),
      replenish: () => rawReplenish(pgDriver(client), adminId)
    })[bench]()
    const peakRssKiB = process.resourceUsage().maxRSS
    const [counts] = (await client.query(checks[bench].counts)).rows
    const rows = []
    for (const sql of checks[bench].rows) rows.push((await client.query(sql)).rows)
    return { ...result, peakRssKiB, counts, digest: digest(rows) }
  } finally {
    await client.end()
  }
}

const run = database.startsWith("sqlite:") ? sqlite(database.slice("sqlite:".length)) : postgres(database)
run.then(
  (result) => process.send({ ok: true, result }, () => process.exit(0)),
  (error) => process.send({ ok: false, error: String(error?.stack ?? error) }, () => process.exit(1))
)
