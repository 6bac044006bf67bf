/**
 * What the files of the storage contract suite share: the loop over both stores, tenants made
 * fresh for each test, rows written through the ports, and the checks that a lock holds another
 * transaction and that a method dies.
 *
 * Each file runs its tests on a SQLite file and a PostgreSQL database of its own, made once for
 * the file; tests share them, so each one works in tenants of its own. The PostgreSQL database
 * sorts text by a language's rules, as many servers do: the stores must answer alike whatever
 * the collation.
 */
import { assert, layer, type Vitest } from "@effect/vitest"
import {
  type CarrierInput,
  CarrierRepository,
  Client,
  ClientId,
  InventoryRepository,
  LocationRepository,
  MovementTaskRepository,
  type NewMovementTask,
  OrderRepository,
  type Owner,
  type PartnerInput,
  type PartnerKind,
  PartnerRepository,
  type Scope,
  Site,
  SiteId,
  SiteRepository,
  type Sku,
  SkuRepository,
  type StoredLocation,
  type StoredWave,
  Transactor,
  WaveRepository
} from "@wms/core"
import { PgStore } from "@wms/sql-pg"
import { SqliteStore } from "@wms/sql-sqlite"
import { Cause, Deferred, Effect, Exit, Fiber, Layer, Option } from "effect"
import { freshLinguisticPgDatabase, freshSqliteFile } from "../../../../testing/databases.js"

/** Every port of the core with the `SqlClient` and `Prepared` statements under them. */
export type Store = Layer.Layer.Success<ReturnType<typeof SqliteStore.layer>>

const stores: ReadonlyArray<readonly [label: string, store: Layer.Layer<Store>]> = [
  ["sqlite", Layer.unwrapScoped(Effect.map(freshSqliteFile, (filename) => SqliteStore.layer({ filename })))],
  ["postgres", Layer.unwrapScoped(Effect.map(freshLinguisticPgDatabase, (url) => PgStore.layer({ url })))]
]

/**
 * Declares `tests` once per store, on a database of each kind made for the file. The services are
 * live: a few tests wait on the real clock for what must not happen.
 */
export const onEachStore = (feature: string, tests: (it: Vitest.MethodsNonLive<Store, true>) => void) => {
  for (const [kind, store] of stores) {
    // `layer`, never `it.layer`, in a loop (docs/ARCHITECTURE.md, Tests).
    layer(store, { timeout: 60_000, excludeTestServices: true })(`${feature} on ${kind}`, tests)
  }
}

let serial = 0

/** An id no other test of the file has used: `label` and a number. */
export const fresh = (label: string) => `${label}${++serial}`

/** An owner of records, and the scope that acts as it: it sees what it owns, and its clients' rows for a site. */
export interface Tenant {
  readonly owner: Owner
  readonly scope: Scope
}

const tenant = (site_id: SiteId, fulfillment: boolean, client_id: ClientId | null): Tenant => ({
  owner: { site_id, client_id },
  scope: { site_id, fulfillment, client_id }
})

/**
 * A fulfillment site with two clients, and a plain site beside it. The site's scope sees the rows
 * of both clients and its own; a client's scope only the client's.
 */
export const makeTenants = Effect.gen(function*() {
  const sites = yield* SiteRepository
  const siteId = SiteId.make(fresh("F"))
  const otherId = SiteId.make(fresh("P"))
  const client1 = ClientId.make(fresh("C"))
  const client2 = ClientId.make(fresh("C"))
  assert.isTrue(yield* sites.insertSite(new Site({ site_id: siteId, name: "Fulfillment", fulfillment: true })))
  assert.isTrue(yield* sites.insertSite(new Site({ site_id: otherId, name: "Plain", fulfillment: false })))
  for (const clientId of [client1, client2]) {
    assert.isTrue(yield* sites.insertClient(new Client({ client_id: clientId, site_id: siteId, name: clientId })))
  }
  return {
    site: tenant(siteId, true, null),
    client1: tenant(siteId, true, client1),
    client2: tenant(siteId, true, client2),
    other: tenant(otherId, false, null)
  }
})

export type Tenants = Effect.Effect.Success<typeof makeTenants>

/** A SKU with every optional field empty, owned by `clientId` or the site. */
export const skuOf = (skuId: string, clientId: ClientId | null = null, fields: Partial<Sku> = {}): Sku => ({
  sku_id: skuId,
  client_id: clientId,
  description: `Article ${skuId}`,
  ean: null,
  sku_group: null,
  expiry_sku: false,
  expiry_days: null,
  obsolete: false,
  new: true,
  each_width: null,
  each_height: null,
  each_depth: null,
  each_weight: null,
  each_volume: null,
  each_value: null,
  preferred_putaway_location: null,
  qty_on_full_pallet: null,
  default_receipt_quantity: null,
  pick_method: 1,
  ...fields
})

/** Writes SKUs of the owner's site and client; yields their ids. */
export const insertSkus = (owner: Owner, skuIds: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const skus = yield* SkuRepository
    for (const skuId of skuIds) assert.isTrue(yield* skus.insert(owner.site_id, skuOf(skuId, owner.client_id)))
    return skuIds
  })

/** A partner's fields with only a name, or with those given. */
export const partnerInput = (name: string, fields: Partial<PartnerInput> = {}): PartnerInput => ({
  name,
  attention: null,
  address: null,
  zipcode: null,
  town: null,
  country: null,
  phone: null,
  website: null,
  ...fields
})

/** Writes a customer or a supplier of the owner; yields its id. */
export const insertPartner = (kind: PartnerKind, owner: Owner, name: string, town: string | null = null) =>
  Effect.flatMap(PartnerRepository, (partners) => partners.insert(kind, owner, partnerInput(name, { town })))

/** A carrier's fields with only a name, or with those given. */
export const carrierInput = (name: string, fields: Partial<CarrierInput> = {}): CarrierInput => ({
  name,
  address: null,
  zipcode: null,
  town: null,
  country: null,
  phone: null,
  url: null,
  ...fields
})

/** Writes a carrier of the site; yields its id. */
export const insertCarrier = (siteId: SiteId, name: string) =>
  Effect.flatMap(CarrierRepository, (carriers) => carriers.insert(siteId, carrierInput(name)))

/** What an order is written with beyond its owner, id and lines. */
export interface OrderExtras {
  readonly status_id?: number
  readonly customer_id?: number | null
  readonly carrier_id?: number | null
  readonly order_date?: string | null
  readonly ship_by_date?: string | null
  readonly ship_dock?: string | null
  readonly to_site?: string | null
}

/** Writes an order (Released unless told) with lines numbered from 1; yields its key. */
export const insertOrder = (
  owner: Owner,
  orderId: string,
  lines: ReadonlyArray<readonly [skuId: string, qty: number]>,
  extras: OrderExtras = {}
) =>
  Effect.gen(function*() {
    const orders = yield* OrderRepository
    const ref = Option.getOrThrow(
      yield* orders.insert({
        owner,
        order_id: orderId,
        status_id: extras.status_id ?? 14,
        created_at: "2030-01-01T08:00:00.000Z",
        created_by: "tester",
        to_site: extras.to_site ?? null,
        customer_id: extras.customer_id ?? null,
        order_date: extras.order_date ?? null,
        ship_by_date: extras.ship_by_date ?? null,
        carrier_id: extras.carrier_id ?? null,
        ship_dock: extras.ship_dock ?? null
      })
    )
    const taken = yield* orders.insertLines(ref, lines.map(([sku_id, qty], i) => ({ line: i + 1, sku_id, qty })))
    assert.deepStrictEqual(taken, [])
    return ref
  })

/** Writes a content of the owner (received at `created_at`, nothing allocated); yields its id. */
export const insertContent = (
  owner: Owner,
  fields: {
    readonly sku_id: string
    readonly qty: number
    readonly loc_id?: string
    readonly tag_id?: string
    readonly expiry_date?: string | null
    readonly qty_allocated?: number
    readonly created_at?: string
  }
) =>
  Effect.flatMap(InventoryRepository, (inventory) =>
    inventory.insertContent({
      site_id: owner.site_id,
      client_id: owner.client_id,
      sku_id: fields.sku_id,
      loc_id: fields.loc_id ?? "A-01",
      tag_id: fields.tag_id ?? "T1",
      expiry_date: fields.expiry_date ?? null,
      qty: fields.qty,
      qty_allocated: fields.qty_allocated ?? 0,
      qty_tasked_from: 0,
      created_at: fields.created_at ?? "2030-01-01T08:00:00.000Z"
    }))

/** A location of the site: an Active Storage location without zone, capacity or client unless told. */
export const locationOf = (siteId: SiteId, locId: string, fields: Partial<StoredLocation> = {}): StoredLocation => ({
  site_id: siteId,
  loc_id: locId,
  description: null,
  loc_type: "Storage",
  zone: null,
  sequence: 0,
  max_tags: null,
  max_weight: null,
  max_volume: null,
  status: "Active",
  client_id: null,
  ...fields
})

/** Writes locations of the site, each as `locationOf` makes it with `fields`. */
export const insertLocations = (siteId: SiteId, locIds: ReadonlyArray<string>, fields: Partial<StoredLocation> = {}) =>
  Effect.flatMap(
    LocationRepository,
    (locations) =>
      Effect.forEach(
        locIds,
        (locId) =>
          Effect.map(locations.insert(locationOf(siteId, locId, fields)), (inserted) => assert.isTrue(inserted))
      )
  )

/** An Open Move task of the owner's content from `A-01` to `B-01` unless told. */
export const taskOf = (owner: Owner, contentId: number, fields: Partial<NewMovementTask> = {}): NewMovementTask => ({
  site_id: owner.site_id,
  client_id: owner.client_id,
  task_type: "Move",
  status_id: 1,
  content_id: contentId,
  sku_id: "A",
  tag_id: "T1",
  qty: 1,
  from_loc_id: "A-01",
  to_loc_id: "B-01",
  final_loc_id: "B-01",
  created_by: "tester",
  reason: null,
  created_at: "2030-01-01T10:00:00.000Z",
  ...fields
})

/** Writes movement tasks; yields their ids. */
export const insertTasks = (tasks: ReadonlyArray<NewMovementTask>) =>
  Effect.flatMap(MovementTaskRepository, (repository) => repository.insert(tasks))

/** Writes a wave of the owner (Released unless told, taking every order, per order); yields its id. */
export const insertWave = (owner: Owner, fields: Partial<Omit<StoredWave, "id" | "site_id" | "client_id">> = {}) =>
  Effect.flatMap(WaveRepository, (waves) =>
    waves.insert({
      site_id: owner.site_id,
      client_id: owner.client_id,
      status_id: 14,
      criterium_id: 5,
      value: null,
      pick_type: 1,
      autostart: false,
      created_at: "2030-01-01T09:00:00.000Z",
      created_by: "tester",
      ...fields
    }))

/**
 * Runs `holder` in a transaction that stays open, then `waiter` in another, and checks that the
 * waiter does not end before the holder's transaction commits: what the holder locked (or wrote)
 * keeps the waiter out. Yields what the waiter saw, once in. On SQLite every transaction waits
 * for the one before; on PostgreSQL only the row locks keep the waiter out.
 */
export const waitsForCommit = <A, E1, R1, B, E2, R2>(
  holder: Effect.Effect<A, E1, R1>,
  waiter: Effect.Effect<B, E2, R2>
) =>
  Effect.gen(function*() {
    const { atomically } = yield* Transactor
    const held = yield* Deferred.make<void>()
    const release = yield* Deferred.make<void>()
    const first = yield* Effect.fork(atomically(Effect.gen(function*() {
      const result = yield* holder
      yield* Deferred.succeed(held, undefined)
      yield* Deferred.await(release)
      return result
    })))
    yield* Deferred.await(held)
    const second = yield* Effect.fork(atomically(waiter))
    // Time for the waiter to get through, were it not kept out.
    yield* Effect.sleep("100 millis")
    assert.isTrue(Option.isNone(yield* Fiber.poll(second)), "the second transaction ended while the first held on")
    yield* Deferred.succeed(release, undefined)
    yield* Fiber.join(first)
    return yield* Fiber.join(second)
  })

/** Checks that `effect` dies, as a port method does on what its caller must make impossible. */
export const assertDies = <A, E>(effect: Effect.Effect<A, E>) =>
  Effect.map(Effect.exit(effect), (exit) => {
    assert.isTrue(Exit.isFailure(exit) && Cause.isDie(exit.cause), `expected a defect, got ${String(exit)}`)
  })

/** Sorts texts by their UTF-16 code units, which is byte order for the ASCII ids of the tests. */
export const byCodeUnits = (texts: ReadonlyArray<string>) => [...texts].sort()
