/**
 * The schema of the store, one migration per key, written once for both dialects. Keys must
 * match `^\d+_.+` or the migrator skips them; a record (not the file system) survives bundling.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { double, serialPrimaryKey } from "./Dialect.js"

const foundation = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // Site ids and client ids share one namespace: the `site` header may hold either.
  yield* sql`CREATE TABLE scope_keys (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('site', 'client'))
  )`
  yield* sql`CREATE TABLE sites (
    site_id TEXT PRIMARY KEY REFERENCES scope_keys (id),
    name TEXT NOT NULL,
    fulfillment INTEGER NOT NULL CHECK (fulfillment IN (0, 1))
  )`
  yield* sql`CREATE TABLE clients (
    client_id TEXT PRIMARY KEY REFERENCES scope_keys (id),
    site_id TEXT NOT NULL REFERENCES sites (site_id),
    name TEXT NOT NULL
  )`
  yield* sql`CREATE INDEX clients_site ON clients (site_id)`
  yield* sql`CREATE TABLE users (
    user_id TEXT PRIMARY KEY,
    email TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    name TEXT NOT NULL,
    admin INTEGER NOT NULL CHECK (admin IN (0, 1)),
    site_id TEXT NOT NULL REFERENCES sites (site_id),
    client_id TEXT REFERENCES clients (client_id)
  )`
  yield* sql`CREATE INDEX users_site ON users (site_id)`
  yield* sql`CREATE TABLE settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
  )`
})

// The records of §2: master data, orders and pre-advices. Every record carries its owner
// (site_id, client_id); numeric ids are 32-bit serials so both dialects return numbers.
const records = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const serial = serialPrimaryKey(sql)
  const real = double(sql)
  // Per-site counters for generated ids such as sku_group_id.
  yield* sql`CREATE TABLE counters (
    site_id TEXT NOT NULL REFERENCES sites (site_id),
    name TEXT NOT NULL,
    value INTEGER NOT NULL,
    PRIMARY KEY (site_id, name)
  )`
  for (const table of ["customers", "suppliers"]) {
    yield* sql`CREATE TABLE ${sql(table)} (
      id ${serial},
      site_id TEXT NOT NULL REFERENCES sites (site_id),
      client_id TEXT REFERENCES clients (client_id),
      name TEXT NOT NULL,
      attention TEXT,
      address TEXT,
      zipcode TEXT,
      town TEXT,
      country TEXT,
      phone TEXT,
      website TEXT
    )`
    yield* sql`CREATE INDEX ${sql(`${table}_owner`)} ON ${sql(table)} (site_id, client_id)`
  }
  yield* sql`CREATE TABLE carriers (
    id ${serial},
    site_id TEXT NOT NULL REFERENCES sites (site_id),
    name TEXT NOT NULL,
    address TEXT,
    zipcode TEXT,
    town TEXT,
    country TEXT,
    phone TEXT,
    url TEXT
  )`
  yield* sql`CREATE INDEX carriers_site ON carriers (site_id)`
  yield* sql`CREATE TABLE sku_groups (
    site_id TEXT NOT NULL REFERENCES sites (site_id),
    sku_group_id TEXT NOT NULL,
    client_id TEXT REFERENCES clients (client_id),
    description TEXT NOT NULL,
    PRIMARY KEY (site_id, sku_group_id)
  )`
  yield* sql`CREATE TABLE skus (
    site_id TEXT NOT NULL REFERENCES sites (site_id),
    sku_id TEXT NOT NULL,
    client_id TEXT REFERENCES clients (client_id),
    description TEXT NOT NULL,
    ean TEXT,
    sku_group TEXT,
    expiry_sku INTEGER NOT NULL CHECK (expiry_sku IN (0, 1)),
    expiry_days INTEGER,
    obsolete INTEGER NOT NULL CHECK (obsolete IN (0, 1)),
    new INTEGER NOT NULL CHECK (new IN (0, 1)),
    each_width ${real},
    each_height ${real},
    each_depth ${real},
    each_weight ${real},
    each_volume ${real},
    each_value ${real},
    preferred_putaway_location TEXT,
    qty_on_full_pallet INTEGER,
    default_receipt_quantity INTEGER,
    pick_method INTEGER NOT NULL CHECK (pick_method IN (1, 2)),
    PRIMARY KEY (site_id, sku_id),
    FOREIGN KEY (site_id, sku_group) REFERENCES sku_groups (site_id, sku_group_id)
  )`
  yield* sql`CREATE TABLE orders (
    id ${serial},
    site_id TEXT NOT NULL REFERENCES sites (site_id),
    order_id TEXT NOT NULL,
    client_id TEXT REFERENCES clients (client_id),
    order_date TEXT,
    status_id INTEGER NOT NULL,
    customer_id INTEGER REFERENCES customers (id),
    ship_by_date TEXT,
    carrier_id INTEGER REFERENCES carriers (id),
    ship_dock TEXT,
    created_at TEXT NOT NULL,
    created_by TEXT NOT NULL,
    UNIQUE (site_id, order_id)
  )`
  yield* sql`CREATE INDEX orders_owner ON orders (site_id, client_id)`
  yield* sql`CREATE TABLE order_lines (
    order_ref INTEGER NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    line INTEGER NOT NULL,
    sku_id TEXT NOT NULL,
    qty INTEGER NOT NULL CHECK (qty >= 1),
    qty_picked INTEGER NOT NULL DEFAULT 0,
    qty_shipped INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (order_ref, line)
  )`
  yield* sql`CREATE TABLE preadvices (
    id ${serial},
    site_id TEXT NOT NULL REFERENCES sites (site_id),
    pre_advice_id TEXT NOT NULL,
    client_id TEXT REFERENCES clients (client_id),
    status_id INTEGER NOT NULL,
    supplier_id INTEGER REFERENCES suppliers (id),
    created_at TEXT NOT NULL,
    created_by TEXT NOT NULL,
    UNIQUE (site_id, pre_advice_id)
  )`
  yield* sql`CREATE INDEX preadvices_owner ON preadvices (site_id, client_id)`
  yield* sql`CREATE TABLE preadvice_lines (
    preadvice_ref INTEGER NOT NULL REFERENCES preadvices (id) ON DELETE CASCADE,
    line INTEGER NOT NULL,
    sku_id TEXT NOT NULL,
    qty INTEGER NOT NULL CHECK (qty >= 1),
    qty_received INTEGER NOT NULL DEFAULT 0,
    pallet_id TEXT,
    client_id TEXT REFERENCES clients (client_id),
    PRIMARY KEY (preadvice_ref, line)
  )`
})

// Stock: contents, the ledger and lost-and-found (§2.5, DECISIONS §5). The CHECK on contents is
// the stock rule itself, a last guard under the one the core enforces.
const inventory = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const serial = serialPrimaryKey(sql)
  yield* sql`ALTER TABLE sites ADD COLUMN receiving_location TEXT NOT NULL DEFAULT 'RECEIVING'`
  yield* sql`ALTER TABLE sites ADD COLUMN default_dock TEXT NOT NULL DEFAULT 'DOCK'`
  yield* sql`CREATE TABLE contents (
    content_id ${serial},
    site_id TEXT NOT NULL REFERENCES sites (site_id),
    client_id TEXT REFERENCES clients (client_id),
    sku_id TEXT NOT NULL,
    loc_id TEXT NOT NULL,
    tag_id TEXT NOT NULL,
    expiry_date TEXT,
    qty INTEGER NOT NULL,
    qty_allocated INTEGER NOT NULL DEFAULT 0,
    qty_tasked_from INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    CHECK (qty_allocated >= 0 AND qty_tasked_from >= 0 AND qty_allocated + qty_tasked_from <= qty)
  )`
  yield* sql`CREATE INDEX contents_sku ON contents (site_id, sku_id)`
  yield* sql`CREATE INDEX contents_key ON contents (site_id, sku_id, loc_id, tag_id)`
  yield* sql`CREATE TABLE inventory_transactions (
    id ${serial},
    site_id TEXT NOT NULL REFERENCES sites (site_id),
    client_id TEXT REFERENCES clients (client_id),
    created_at TEXT NOT NULL,
    transaction_type TEXT NOT NULL,
    content_id INTEGER NOT NULL REFERENCES contents (content_id),
    from_loc_id TEXT NOT NULL,
    to_loc_id TEXT NOT NULL,
    final_loc_id TEXT NOT NULL,
    sku_id TEXT NOT NULL,
    qty INTEGER NOT NULL,
    tag_id TEXT NOT NULL,
    order_id TEXT,
    line_id INTEGER,
    notes TEXT
  )`
  yield* sql`CREATE INDEX inventory_transactions_owner ON inventory_transactions (site_id, client_id)`
  yield* sql`CREATE INDEX inventory_transactions_content ON inventory_transactions (content_id)`
  yield* sql`CREATE TABLE lost_and_found (
    id ${serial},
    site_id TEXT NOT NULL REFERENCES sites (site_id),
    client_id TEXT REFERENCES clients (client_id),
    content_id INTEGER NOT NULL REFERENCES contents (content_id),
    sku_id TEXT NOT NULL,
    loc_id TEXT NOT NULL,
    tag_id TEXT NOT NULL,
    qty INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    created_by TEXT NOT NULL,
    notes TEXT
  )`
})

// Waves (§2.6, §2.7, DECISIONS §6). A pick task exists exactly as long as its claim is allocated,
// so both live in one row of `claims`: the task's id is the claim's id, and one-to-one holds by
// construction.
const waves = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const serial = serialPrimaryKey(sql)
  yield* sql`CREATE TABLE wave_definitions (
    id ${serial},
    site_id TEXT NOT NULL REFERENCES sites (site_id),
    description TEXT NOT NULL,
    criterium_id INTEGER NOT NULL CHECK (criterium_id BETWEEN 1 AND 8),
    value TEXT,
    pick_type INTEGER NOT NULL CHECK (pick_type BETWEEN 1 AND 4),
    autostart INTEGER NOT NULL CHECK (autostart IN (0, 1))
  )`
  yield* sql`CREATE INDEX wave_definitions_site ON wave_definitions (site_id)`
  yield* sql`CREATE TABLE waves (
    id ${serial},
    site_id TEXT NOT NULL REFERENCES sites (site_id),
    client_id TEXT REFERENCES clients (client_id),
    status_id INTEGER NOT NULL,
    criterium_id INTEGER NOT NULL,
    value TEXT,
    pick_type INTEGER NOT NULL,
    autostart INTEGER NOT NULL CHECK (autostart IN (0, 1)),
    created_at TEXT NOT NULL,
    created_by TEXT NOT NULL
  )`
  yield* sql`CREATE INDEX waves_owner ON waves (site_id, client_id)`
  yield* sql`CREATE TABLE wave_orders (
    wave_id INTEGER NOT NULL REFERENCES waves (id) ON DELETE CASCADE,
    order_ref INTEGER NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    PRIMARY KEY (wave_id, order_ref)
  )`
  yield* sql`CREATE INDEX wave_orders_order ON wave_orders (order_ref)`
  yield* sql`CREATE TABLE claimsets (
    id ${serial},
    wave_id INTEGER NOT NULL REFERENCES waves (id) ON DELETE CASCADE,
    claimset_break TEXT NOT NULL,
    pick_type TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('released', 'picked'))
  )`
  yield* sql`CREATE INDEX claimsets_wave ON claimsets (wave_id)`
  yield* sql`CREATE TABLE claims (
    id ${serial},
    site_id TEXT NOT NULL REFERENCES sites (site_id),
    client_id TEXT REFERENCES clients (client_id),
    wave_id INTEGER NOT NULL REFERENCES waves (id),
    claimset_id INTEGER NOT NULL REFERENCES claimsets (id),
    content_id INTEGER NOT NULL REFERENCES contents (content_id),
    order_ref INTEGER NOT NULL REFERENCES orders (id),
    order_id TEXT NOT NULL,
    line_id INTEGER NOT NULL,
    sku_id TEXT NOT NULL,
    qty INTEGER NOT NULL CHECK (qty >= 1),
    status TEXT NOT NULL CHECK (status IN ('allocated', 'picked')),
    tag_id TEXT NOT NULL,
    from_loc_id TEXT NOT NULL,
    to_loc_id TEXT NOT NULL,
    final_loc_id TEXT NOT NULL,
    created_at TEXT NOT NULL
  )`
  yield* sql`CREATE INDEX claims_wave ON claims (wave_id)`
  yield* sql`CREATE INDEX claims_order ON claims (order_ref, line_id)`
  yield* sql`CREATE INDEX claims_content ON claims (content_id)`
})

// The event outbox (DECISIONS §8): events are appended with the change that raised them, in id
// order, and never changed; delivery state lives apart, per webhook.
const events = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const serial = serialPrimaryKey(sql)
  yield* sql`CREATE TABLE events (
    id ${serial},
    event_type TEXT NOT NULL,
    site_id TEXT NOT NULL REFERENCES sites (site_id),
    client_id TEXT REFERENCES clients (client_id),
    created_at TEXT NOT NULL,
    data TEXT NOT NULL
  )`
  yield* sql`CREATE INDEX events_site ON events (site_id, event_type, id)`
})

// Picking (DECISIONS §7): open tasks are listed per site and counted per claimset at every
// confirmation, so both lookups get an index instead of a scan of every claim ever made.
const picking = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE INDEX claims_open ON claims (site_id, status, id)`
  yield* sql`CREATE INDEX claims_claimset ON claims (claimset_id, status)`
})

// Webhooks (DECISIONS §8). `last_event_id` is a webhook's place in the outbox: the events up to it
// have their deliveries (or were skipped while disabled). One delivery per webhook and event; an
// attempt in flight holds it with a lease (`locked_until`) that expires when its process dies.
const webhooks = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const serial = serialPrimaryKey(sql)
  yield* sql`CREATE TABLE webhooks (
    id ${serial},
    site_id TEXT NOT NULL REFERENCES sites (site_id),
    client_id TEXT REFERENCES clients (client_id),
    event_type TEXT NOT NULL,
    url TEXT NOT NULL,
    secret TEXT,
    enabled INTEGER NOT NULL CHECK (enabled IN (0, 1)),
    created_at TEXT NOT NULL,
    last_event_id INTEGER NOT NULL
  )`
  yield* sql`CREATE INDEX webhooks_site ON webhooks (site_id, id)`
  yield* sql`CREATE TABLE deliveries (
    id ${serial},
    webhook_id INTEGER NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    event_id INTEGER NOT NULL REFERENCES events (id),
    status TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
    attempts INTEGER NOT NULL,
    last_status_code INTEGER,
    last_error TEXT,
    next_attempt_at TEXT,
    delivered_at TEXT,
    locked_until TEXT,
    created_at TEXT NOT NULL,
    UNIQUE (webhook_id, event_id)
  )`
  yield* sql`CREATE INDEX deliveries_due ON deliveries (status, next_attempt_at)`
  yield* sql`CREATE INDEX deliveries_head ON deliveries (webhook_id, status, event_id)`
})

// Users that can be disabled, and whose tokens end: a token carries the version it was issued
// at, and every change of the user (disable, password, rights) raises it.
const userSessions = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE users ADD COLUMN active INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1))`
  yield* sql`ALTER TABLE users ADD COLUMN token_version INTEGER NOT NULL DEFAULT 0`
})

// Idempotency keys (the `Idempotency-Key` header): a caller's key with the request that used it
// (a hash) and the answer it got, for 24 hours. The answer columns are set in the transaction that
// inserts the row, so a committed row always has them. Old rows go by `created_at`.
const idempotencyKeys = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE idempotency_keys (
    user_id TEXT NOT NULL,
    idempotency_key TEXT NOT NULL,
    request_hash TEXT NOT NULL,
    status INTEGER,
    headers TEXT,
    body TEXT,
    created_at TEXT NOT NULL,
    PRIMARY KEY (user_id, idempotency_key)
  )`
  yield* sql`CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at)`
})

// The warehouse cycle: the location master, movement tasks and the settings of sites. A movement
// transaction names the content it takes stock from (`from_content_id`); a correction its reason.
// An open task is found by its source content (the stock rule's sum), by its destination (the
// capacity of a location) and by its source location (a location that holds open tasks).
const warehouseCycle = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const serial = serialPrimaryKey(sql)
  const real = double(sql)
  yield* sql`CREATE TABLE locations (
    site_id TEXT NOT NULL REFERENCES sites (site_id),
    loc_id TEXT NOT NULL,
    description TEXT,
    loc_type TEXT NOT NULL
      CHECK (loc_type IN ('Receiving', 'Storage', 'PickFace', 'Staging', 'Dock', 'LostAndFound')),
    zone TEXT,
    sequence INTEGER NOT NULL,
    max_tags INTEGER,
    max_weight ${real},
    max_volume ${real},
    status TEXT NOT NULL CHECK (status IN ('Active', 'Blocked In', 'Blocked Out', 'Blocked', 'Counting')),
    client_id TEXT REFERENCES clients (client_id),
    PRIMARY KEY (site_id, loc_id)
  )`
  yield* sql`CREATE TABLE movement_tasks (
    id ${serial},
    site_id TEXT NOT NULL REFERENCES sites (site_id),
    client_id TEXT REFERENCES clients (client_id),
    task_type TEXT NOT NULL CHECK (task_type IN ('Putaway', 'Move', 'Replenish')),
    status_id INTEGER NOT NULL CHECK (status_id IN (1, 20, 21)),
    content_id INTEGER NOT NULL REFERENCES contents (content_id),
    sku_id TEXT NOT NULL,
    tag_id TEXT NOT NULL,
    qty INTEGER NOT NULL CHECK (qty >= 1),
    from_loc_id TEXT NOT NULL,
    to_loc_id TEXT NOT NULL,
    final_loc_id TEXT NOT NULL,
    created_by TEXT NOT NULL,
    reason TEXT,
    created_at TEXT NOT NULL
  )`
  yield* sql`CREATE INDEX movement_tasks_list ON movement_tasks (site_id, status_id, id)`
  yield* sql`CREATE INDEX movement_tasks_content ON movement_tasks (content_id, status_id)`
  yield* sql`CREATE INDEX movement_tasks_to ON movement_tasks (site_id, to_loc_id, status_id)`
  yield* sql`CREATE INDEX movement_tasks_from ON movement_tasks (site_id, from_loc_id, status_id)`
  yield* sql`CREATE INDEX contents_location ON contents (site_id, loc_id)`
  yield* sql`CREATE TABLE site_settings (
    site_id TEXT PRIMARY KEY REFERENCES sites (site_id),
    putaway_on_receipt INTEGER NOT NULL CHECK (putaway_on_receipt IN (0, 1))
  )`
  yield* sql`ALTER TABLE inventory_transactions ADD COLUMN from_content_id INTEGER REFERENCES contents (content_id)`
  yield* sql`ALTER TABLE inventory_transactions ADD COLUMN reason_code TEXT`
})

// Cycle counts: a count per location (one that is not over per location, by a partial unique
// key, so two processes can never both open one), the snapshot of each count index with the
// in-flight deltas of confirmations, and the recorded lines (one per SKU and tag: the last write
// wins; '' is a line without a tag). A location remembers when it was last counted; a site, how
// far a count may be off without approval.
const cycleCounts = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const serial = serialPrimaryKey(sql)
  const real = double(sql)
  yield* sql`ALTER TABLE locations ADD COLUMN last_counted TEXT`
  yield* sql`ALTER TABLE site_settings ADD COLUMN count_variance_percent ${real}`
  yield* sql`ALTER TABLE site_settings ADD COLUMN count_variance_units INTEGER`
  yield* sql`CREATE TABLE counts (
    id ${serial},
    site_id TEXT NOT NULL REFERENCES sites (site_id),
    loc_id TEXT NOT NULL,
    sku_id TEXT,
    blind INTEGER NOT NULL CHECK (blind IN (0, 1)),
    assignee TEXT,
    reason TEXT,
    status_id INTEGER NOT NULL CHECK (status_id IN (1, 20, 21, 22, 23)),
    count_index INTEGER NOT NULL,
    location_status TEXT,
    reason_code TEXT,
    created_by TEXT NOT NULL,
    created_at TEXT NOT NULL,
    released_at TEXT,
    completed_at TEXT,
    approved_by TEXT
  )`
  yield* sql`CREATE UNIQUE INDEX counts_open_location ON counts (site_id, loc_id) WHERE status_id IN (1, 22, 23)`
  yield* sql`CREATE INDEX counts_list ON counts (site_id, status_id, id)`
  yield* sql`CREATE TABLE count_contents (
    count_id INTEGER NOT NULL REFERENCES counts (id),
    count_index INTEGER NOT NULL,
    content_id INTEGER NOT NULL REFERENCES contents (content_id),
    client_id TEXT,
    sku_id TEXT NOT NULL,
    tag_id TEXT NOT NULL,
    expiry_date TEXT,
    expected INTEGER NOT NULL,
    in_flight INTEGER NOT NULL,
    PRIMARY KEY (count_id, count_index, content_id)
  )`
  yield* sql`CREATE TABLE count_lines (
    count_id INTEGER NOT NULL REFERENCES counts (id),
    count_index INTEGER NOT NULL,
    sku_id TEXT NOT NULL,
    tag_key TEXT NOT NULL,
    client_id TEXT,
    expiry_date TEXT,
    qty_counted INTEGER NOT NULL,
    PRIMARY KEY (count_id, count_index, sku_id, tag_key)
  )`
})

// Pick faces: the min/max of a SKU at a PickFace location. A setting goes with its location. Open
// tasks to a face are found by `movement_tasks_to`, its stock by `contents_key`.
const pickFaces = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE pick_faces (
    site_id TEXT NOT NULL,
    sku_id TEXT NOT NULL,
    loc_id TEXT NOT NULL,
    min_qty INTEGER NOT NULL CHECK (min_qty >= 0),
    max_qty INTEGER NOT NULL,
    replenish_multiple INTEGER CHECK (replenish_multiple >= 1),
    PRIMARY KEY (site_id, sku_id, loc_id),
    FOREIGN KEY (site_id, loc_id) REFERENCES locations (site_id, loc_id) ON DELETE CASCADE,
    CHECK (min_qty < max_qty)
  )`
  yield* sql`CREATE INDEX pick_faces_location ON pick_faces (site_id, loc_id, sku_id)`
})

// Short picks (warehouse cycle 3.6): what a short pick left to a backorder, per order line; the
// order a backorder order was made for; and the site settings that turn re-allocation, backorders
// and control counts on (all off).
const shortPicks = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE order_lines ADD COLUMN qty_backordered INTEGER NOT NULL DEFAULT 0`
  yield* sql`ALTER TABLE orders ADD COLUMN backorder_of TEXT`
  for (const setting of ["reallocate_short_picks", "backorders", "count_on_short_pick"]) {
    yield* sql`ALTER TABLE site_settings ADD COLUMN ${sql.literal(setting)} INTEGER NOT NULL DEFAULT 0
      CHECK (${sql.literal(setting)} IN (0, 1))`
  }
})

// Packing (spec §4): shipping units of one order each, their SSCC unique on the site, their lines
// one per order line (`shipping_units_order` finds an order's units, for its record too); the
// site settings of SSCCs and of ship by unit. The SSCC serial is the site's `sscc` counter.
const shippingUnits = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const real = double(sql)
  yield* sql`ALTER TABLE site_settings ADD COLUMN gs1_company_prefix TEXT`
  yield* sql`ALTER TABLE site_settings ADD COLUMN sscc_extension_digit INTEGER NOT NULL DEFAULT 0
    CHECK (sscc_extension_digit BETWEEN 0 AND 9)`
  yield* sql`ALTER TABLE site_settings ADD COLUMN pack_before_ship INTEGER NOT NULL DEFAULT 0
    CHECK (pack_before_ship IN (0, 1))`
  yield* sql`CREATE TABLE shipping_units (
    id ${serialPrimaryKey(sql)},
    site_id TEXT NOT NULL REFERENCES sites (site_id),
    client_id TEXT REFERENCES clients (client_id),
    sscc TEXT NOT NULL,
    order_ref INTEGER NOT NULL REFERENCES orders (id),
    unit_type TEXT NOT NULL CHECK (unit_type IN ('Carton', 'Pallet')),
    parent_id INTEGER REFERENCES shipping_units (id),
    status_id INTEGER NOT NULL,
    tare_weight ${real} NOT NULL,
    weight ${real} NOT NULL,
    length ${real},
    width ${real},
    height ${real},
    tracking_number TEXT,
    created_at TEXT NOT NULL,
    created_by TEXT NOT NULL,
    UNIQUE (site_id, sscc)
  )`
  yield* sql`CREATE INDEX shipping_units_order ON shipping_units (order_ref, id)`
  yield* sql`CREATE INDEX shipping_units_owner ON shipping_units (site_id, client_id)`
  yield* sql`CREATE TABLE shipping_unit_lines (
    unit_id INTEGER NOT NULL REFERENCES shipping_units (id),
    order_line INTEGER NOT NULL,
    sku_id TEXT NOT NULL,
    qty INTEGER NOT NULL CHECK (qty >= 1),
    PRIMARY KEY (unit_id, order_line)
  )`
})

// Holds (spec §1): a hold's scope is its own columns, matched against contents at every read (a
// SKU, lot or location hold covers stock that enters it later); a content hold covers the contents
// listed in `hold_contents` (its content, and those a movement from it filled). Active holds are
// found by SKU and by location, a content's content holds by content. Locations gain the type
// Quarantine: SQLite cannot change a CHECK, so its table is made again, its pick faces kept aside
// (dropping a location deletes its faces).
const holds = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const real = double(sql)
  const locationTypes = sql.literal(
    "CHECK (loc_type IN ('Receiving', 'Storage', 'PickFace', 'Staging', 'Dock', 'LostAndFound', 'Quarantine'))"
  )
  yield* sql.onDialectOrElse({
    pg: () =>
      Effect.gen(function*() {
        yield* sql`ALTER TABLE locations DROP CONSTRAINT locations_loc_type_check`
        yield* sql`ALTER TABLE locations ADD CONSTRAINT locations_loc_type_check ${locationTypes}`
      }),
    orElse: () =>
      Effect.gen(function*() {
        yield* sql`CREATE TABLE pick_faces_kept AS SELECT * FROM pick_faces`
        yield* sql`CREATE TABLE locations_retyped (
          site_id TEXT NOT NULL REFERENCES sites (site_id),
          loc_id TEXT NOT NULL,
          description TEXT,
          loc_type TEXT NOT NULL ${locationTypes},
          zone TEXT,
          sequence INTEGER NOT NULL,
          max_tags INTEGER,
          max_weight ${real},
          max_volume ${real},
          status TEXT NOT NULL CHECK (status IN ('Active', 'Blocked In', 'Blocked Out', 'Blocked', 'Counting')),
          client_id TEXT REFERENCES clients (client_id),
          last_counted TEXT,
          PRIMARY KEY (site_id, loc_id)
        )`
        yield* sql`INSERT INTO locations_retyped (site_id, loc_id, description, loc_type, zone, sequence, max_tags,
            max_weight, max_volume, status, client_id, last_counted)
          SELECT site_id, loc_id, description, loc_type, zone, sequence, max_tags, max_weight, max_volume, status,
            client_id, last_counted FROM locations`
        yield* sql`DROP TABLE locations`
        yield* sql`ALTER TABLE locations_retyped RENAME TO locations`
        yield* sql`DELETE FROM pick_faces`
        yield* sql`INSERT INTO pick_faces SELECT * FROM pick_faces_kept`
        yield* sql`DROP TABLE pick_faces_kept`
      })
  })
  yield* sql`CREATE TABLE holds (
    id ${serialPrimaryKey(sql)},
    site_id TEXT NOT NULL REFERENCES sites (site_id),
    client_id TEXT REFERENCES clients (client_id),
    content_id INTEGER REFERENCES contents (content_id),
    sku_id TEXT,
    tag_id TEXT,
    expiry_date TEXT,
    loc_id TEXT,
    reason_code TEXT NOT NULL,
    notes TEXT,
    status_id INTEGER NOT NULL CHECK (status_id IN (14, 24)),
    deallocate INTEGER NOT NULL CHECK (deallocate IN (0, 1)),
    created_by TEXT NOT NULL,
    created_at TEXT NOT NULL,
    released_by TEXT,
    released_at TEXT,
    release_notes TEXT,
    CHECK (content_id IS NOT NULL OR sku_id IS NOT NULL OR loc_id IS NOT NULL)
  )`
  yield* sql`CREATE INDEX holds_list ON holds (site_id, status_id, id)`
  yield* sql`CREATE INDEX holds_sku ON holds (site_id, sku_id, status_id)`
  yield* sql`CREATE INDEX holds_location ON holds (site_id, loc_id, status_id)`
  yield* sql`CREATE TABLE hold_contents (
    hold_id INTEGER NOT NULL REFERENCES holds (id),
    content_id INTEGER NOT NULL REFERENCES contents (content_id),
    PRIMARY KEY (content_id, hold_id)
  )`
  yield* sql`CREATE INDEX hold_contents_hold ON hold_contents (hold_id)`
})

// Transfers between sites (spec §3): an order sent to another site of the installation (`to_site`
// instead of a customer), and the pre-advice its shipment creates at that site, which names the
// order and the site it came from. A transfer line carries the tag and expiry that were shipped and,
// once short-closed, what was lost on the way (`qty_lost`); the close keeps its reason. The columns
// are null on every other order, pre-advice and line. `preadvices_transfer` finds a site's transfers
// going out for `GET /transfers/in-transit`.
const transfers = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE orders ADD COLUMN to_site TEXT REFERENCES sites (site_id)`
  yield* sql`ALTER TABLE preadvices ADD COLUMN transfer_order_id TEXT`
  yield* sql`ALTER TABLE preadvices ADD COLUMN from_site TEXT REFERENCES sites (site_id)`
  yield* sql`ALTER TABLE preadvices ADD COLUMN reason_code TEXT`
  yield* sql`ALTER TABLE preadvice_lines ADD COLUMN tag_id TEXT`
  yield* sql`ALTER TABLE preadvice_lines ADD COLUMN expiry_date TEXT`
  yield* sql`ALTER TABLE preadvice_lines ADD COLUMN qty_lost INTEGER`
  yield* sql`CREATE INDEX preadvices_transfer ON preadvices (from_site, status_id)`
})

// Customer returns (spec §2): a return of one shipped order, its id unique on the site, its lines
// one per returned order line entry, each with what it authorizes and what its receipts did with
// the goods. `returns_order` finds the returns of an order (R2 sums them under the line's lock);
// the generated ids come from the site's `return` counter.
const returns = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE returns (
    id ${serialPrimaryKey(sql)},
    site_id TEXT NOT NULL REFERENCES sites (site_id),
    client_id TEXT REFERENCES clients (client_id),
    return_id TEXT NOT NULL,
    order_ref INTEGER NOT NULL REFERENCES orders (id),
    customer_id INTEGER,
    reason_code TEXT NOT NULL,
    notes TEXT,
    status_id INTEGER NOT NULL CHECK (status_id IN (1, 2, 3, 20, 21)),
    created_at TEXT NOT NULL,
    created_by TEXT NOT NULL,
    UNIQUE (site_id, return_id)
  )`
  yield* sql`CREATE INDEX returns_order ON returns (order_ref)`
  yield* sql`CREATE INDEX returns_owner ON returns (site_id, client_id)`
  yield* sql`CREATE TABLE return_lines (
    return_ref INTEGER NOT NULL REFERENCES returns (id),
    line INTEGER NOT NULL,
    order_line INTEGER NOT NULL,
    sku_id TEXT NOT NULL,
    qty_authorized INTEGER NOT NULL CHECK (qty_authorized >= 0),
    qty_restocked INTEGER NOT NULL DEFAULT 0,
    qty_quarantined INTEGER NOT NULL DEFAULT 0,
    qty_scrapped INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (return_ref, line),
    CHECK (qty_restocked + qty_quarantined + qty_scrapped <= qty_authorized)
  )`
})

/** Every migration of the store, by key. */
export const migrations: Record<string, Effect.Effect<void, unknown, SqlClient.SqlClient>> = {
  "0001_foundation": foundation,
  "0002_records": records,
  "0010_inventory": inventory,
  "0020_waves": waves,
  "0030_events": events,
  "0040_picking": picking,
  "0060_webhooks": webhooks,
  "0070_user_sessions": userSessions,
  "0080_idempotency_keys": idempotencyKeys,
  "0090_warehouse_cycle": warehouseCycle,
  "0100_cycle_counts": cycleCounts,
  "0110_pick_faces": pickFaces,
  "0120_short_picks": shortPicks,
  // After 0120: the migrator runs only keys above the latest it ran, and each number once.
  "0140_shipping_units": shippingUnits,
  "0150_holds": holds,
  "0160_transfers": transfers,
  "0170_returns": returns
}
