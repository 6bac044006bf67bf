/**
 * What a property suite generates: valid warehouse states (locations, SKUs, stock, orders) and
 * sequences of operations on them. Operations name records by position, so any sequence applies
 * to any state (`Play.ts` says how each one is taken).
 */
import * as fc from "fast-check"
import type { CountVarianceThreshold } from "../admin/SiteSettings.js"
import type { LocationStatus, LocationType } from "../locations/Location.js"
import { type ReasonCode, ReasonCodes, type ShortPickReasonCode, ShortPickReasonCodes } from "../stock/ReasonCode.js"

/** The unmanaged location ids generated stock lies at besides the site's receiving location. */
export const unmanagedLocations = ["A-01", "A-02", "B-01"] as const

/** The site's receiving location as a site starts with it. */
export const defaultReceivingLocation = "RECEIVING"

/**
 * A managed location of a generated warehouse, Active at first. Storage locations are putaway
 * targets; a `Receiving` one is a putaway source.
 */
export interface LocationSeed {
  readonly loc_id: string
  readonly loc_type: LocationType
  readonly zone: string | null
  readonly sequence: number
  readonly max_tags: number | null
  readonly max_weight: number | null
  /** Absent: null. */
  readonly max_volume?: number | null
}

/**
 * A SKU of a generated warehouse; `expiry_days` set means an expiry SKU. The putaway fields are
 * optional: absent, they are null.
 */
export interface SkuSeed {
  readonly sku_id: string
  readonly expiry_days: number | null
  readonly each_weight?: number | null
  readonly each_volume?: number | null
  readonly qty_on_full_pallet?: number | null
  readonly preferred_putaway_location?: string | null
}

/** Stock of a generated warehouse; `expiry_in_days` (from today, negative: expired) only on expiry SKUs. */
export interface ContentSeed {
  readonly sku_id: string
  readonly loc_id: string
  readonly qty: number
  readonly expiry_in_days: number | null
}

/** An order of a generated warehouse. */
export interface OrderSeed {
  readonly order_id: string
  readonly ship_by_in_days: number | null
  readonly lines: ReadonlyArray<{ readonly sku_id: string; readonly qty: number }>
}

/**
 * A valid warehouse: managed locations (absent: none), SKUs, stock of those SKUs (with and
 * without expiry) and orders with lines; with `count_variance_threshold`, the site's (absent: the
 * default, every count applies at once).
 */
export interface WarehouseState {
  readonly locations?: ReadonlyArray<LocationSeed>
  readonly skus: ReadonlyArray<SkuSeed>
  readonly contents: ReadonlyArray<ContentSeed>
  readonly orders: ReadonlyArray<OrderSeed>
  readonly count_variance_threshold?: CountVarianceThreshold
}

/** Bounds of `arbWarehouse`. */
export interface ArbWarehouseOptions {
  /** Managed Storage and Staging locations (0: none, the warehouse of before locations existed). */
  readonly maxLocations?: number
  readonly maxSkus?: number
  readonly maxContents?: number
  readonly maxOrders?: number
  readonly maxLines?: number
  readonly maxQty?: number
  /**
   * Managed `PickFace` locations (`P-0n`), some with limits, and then a reserve Storage location
   * without limits (`R-01`) (default 0: none).
   */
  readonly maxPickFaces?: number
  /** Whether the site gets a count variance threshold, in units or percent (default: no). */
  readonly countThreshold?: boolean
}

// Small limits, so that tasks meet full locations often: a few tags, a few dozen kilograms, a few
// dozen litres.
const arbLocations = (maxLocations: number): fc.Arbitrary<ReadonlyArray<LocationSeed>> =>
  maxLocations === 0 ? fc.constant([]) : fc.tuple(
    fc.uniqueArray(
      fc.record({
        number: fc.integer({ min: 1, max: 9 }),
        loc_type: fc.constantFrom<LocationType>("Storage", "Storage", "Storage", "Staging"),
        zone: fc.constantFrom(null, "Z1", "Z2"),
        sequence: fc.integer({ min: 0, max: 3 }),
        max_tags: fc.option(fc.integer({ min: 1, max: 3 }), { nil: null, freq: 3 }),
        max_weight: fc.option(fc.constantFrom(10, 25, 60), { nil: null, freq: 2 }),
        max_volume: fc.option(fc.constantFrom(20_000, 50_000), { nil: null, freq: 4 })
      }),
      { maxLength: maxLocations, selector: (location) => location.number }
    ),
    fc.boolean()
  ).map(([storage, managedReceiving]) => [
    ...storage.map(({ number, ...fields }): LocationSeed => ({ loc_id: `S-0${number}`, ...fields })),
    ...(managedReceiving
      ? [{
        loc_id: defaultReceivingLocation,
        loc_type: "Receiving" as const,
        zone: null,
        sequence: 0,
        max_tags: null,
        max_weight: null,
        max_volume: null
      }]
      : [])
  ])

/** The reserve Storage location generated with pick faces. */
export const reserveLocation = "R-01"

const arbPickFaces = (maxPickFaces: number): fc.Arbitrary<ReadonlyArray<LocationSeed>> =>
  fc.uniqueArray(
    fc.record({
      number: fc.integer({ min: 1, max: 9 }),
      zone: fc.constantFrom(null, "Z1"),
      sequence: fc.integer({ min: 0, max: 3 }),
      max_tags: fc.option(fc.integer({ min: 1, max: 3 }), { nil: null, freq: 2 }),
      max_weight: fc.option(fc.constantFrom(25, 60), { nil: null, freq: 3 })
    }),
    { minLength: 1, maxLength: maxPickFaces, selector: (face) => face.number }
  ).map((faces) => [
    ...faces.map(({ number, ...fields }): LocationSeed => ({
      loc_id: `P-0${number}`,
      loc_type: "PickFace",
      max_volume: null,
      ...fields
    })),
    // A reserve without limits, so that generated stock lies where replenishment takes it from.
    {
      loc_id: reserveLocation,
      loc_type: "Storage",
      zone: "Z1",
      sequence: 0,
      max_tags: null,
      max_weight: null,
      max_volume: null
    }
  ])

const arbThreshold: fc.Arbitrary<CountVarianceThreshold> = fc.record({
  percent: fc.option(fc.constantFrom(10, 50), { nil: null }),
  units: fc.option(fc.integer({ min: 0, max: 3 }), { nil: null, freq: 4 })
})

/**
 * Valid warehouse states: up to `maxLocations` managed Storage and Staging locations with small
 * limits (sometimes a managed `RECEIVING` too), at least one SKU (some with a weight, a volume, a
 * full pallet quantity or a preferred putaway location), stock at unmanaged and receiving locations and
 * at managed ones without limits, and orders only of those SKUs. With `maxPickFaces`, also pick
 * faces and a reserve without limits to fill them from; with `countThreshold`, the site's count
 * variance threshold.
 */
export const arbWarehouse = (options: ArbWarehouseOptions = {}): fc.Arbitrary<WarehouseState> => {
  const maxQty = options.maxQty ?? 20
  const managed = arbLocations(options.maxLocations ?? 4)
  // Without faces and threshold, the states of before they existed, seed for seed.
  const withFaces = (options.maxPickFaces ?? 0) === 0 ? managed : fc.tuple(
    managed,
    arbPickFaces(options.maxPickFaces ?? 0)
  ).map(([locations, faces]) => [...locations, ...faces])
  const states = withFaces.chain((locations) =>
    fc.uniqueArray(
      fc.record({
        sku_id: fc.stringMatching(/^[A-Z][A-Z0-9]{0,5}$/),
        expiry_days: fc.option(fc.integer({ min: 1, max: 60 }), { nil: null }),
        each_weight: fc.option(fc.constantFrom(0.5, 1, 2.5, 4), { nil: null, freq: 2 }),
        each_volume: fc.option(fc.constantFrom(1_000, 2_500), { nil: null, freq: 2 }),
        qty_on_full_pallet: fc.option(fc.integer({ min: 2, max: 8 }), { nil: null, freq: 2 }),
        preferred_putaway_location: fc.option(
          fc.constantFrom(...locations.map((l) => l.loc_id), unmanagedLocations[0]),
          { nil: null, freq: 2 }
        )
      }),
      { minLength: 1, maxLength: options.maxSkus ?? 4, selector: (sku) => sku.sku_id }
    ).chain((skus) => {
      const sku = fc.constantFrom(...skus)
      // Stock is seeded by adjustments, which no limit refuses: only at locations without one.
      const unlimited = locations
        .filter((l) => l.max_tags === null && l.max_weight === null && (l.max_volume ?? null) === null)
        .map((l) => l.loc_id)
      const stockLocations = [
        ...new Set([...unmanagedLocations, defaultReceivingLocation, ...unlimited]),
        // With pick faces, much of the stock lies in their reserve.
        ...(locations.some((l) => l.loc_type === "PickFace") ? [reserveLocation, reserveLocation, reserveLocation] : [])
      ]
      const content = sku.chain((s) =>
        fc.record({
          sku_id: fc.constant(s.sku_id),
          loc_id: fc.constantFrom(...stockLocations),
          qty: fc.integer({ min: 1, max: maxQty }),
          expiry_in_days: s.expiry_days === null ? fc.constant(null) : fc.option(fc.integer({ min: -3, max: 30 }), {
            nil: null
          })
        })
      )
      const line = fc.record({ sku_id: sku.map((s) => s.sku_id), qty: fc.integer({ min: 1, max: maxQty }) })
      const orders = fc.uniqueArray(
        fc.record({
          order_id: fc.stringMatching(/^SO-[0-9]{1,4}$/),
          ship_by_in_days: fc.option(fc.integer({ min: 0, max: 10 }), { nil: null }),
          lines: fc.array(line, { minLength: 1, maxLength: options.maxLines ?? 3 })
        }),
        { maxLength: options.maxOrders ?? 5, selector: (order) => order.order_id }
      )
      return fc.record({
        locations: fc.constant(locations),
        skus: fc.constant(skus),
        contents: fc.array(content, { maxLength: options.maxContents ?? 8 }),
        orders
      })
    })
  )
  return options.countThreshold === true
    ? fc.tuple(states, arbThreshold).map(([state, count_variance_threshold]) => ({
      ...state,
      count_variance_threshold
    }))
    : states
}

/** The location statuses an operation sets: `Counting` is a count's alone. */
export type SettableStatus = Exclude<LocationStatus, "Counting">

/**
 * One operation. Positions (`sku`, `content`, `wave`, `task`, `location`, `to`, `from`) pick among
 * what exists when it runs, modulo its count, in the order the engine lists it; a location
 * position picks among the world's locations (`World.locations`).
 */
export type Op =
  /**
   * A pre-advice of one line, received in full at the site's receiving location: new stock. With
   * `putaway` true it gets its putaway tasks; absent or null, the site setting decides (off).
   */
  | {
    readonly _tag: "Receive"
    readonly sku: number
    readonly qty: number
    readonly expiry_in_days: number | null
    readonly putaway?: boolean | null
  }
  /** A stock adjustment of an existing content by `qty` (negative: stock taken off). */
  | { readonly _tag: "Adjust"; readonly content: number; readonly qty: number }
  /** A new order of one line. */
  | { readonly _tag: "AddOrder"; readonly sku: number; readonly qty: number }
  /** A wave of every Released order that is in no other wave. */
  | { readonly _tag: "CreateWave" }
  | { readonly _tag: "StartWave"; readonly wave: number }
  | { readonly _tag: "DeleteWave"; readonly wave: number }
  /** A pick: the whole task, or `picked` units of it modulo its quantity + 1 (a short pick). */
  | { readonly _tag: "ConfirmTask"; readonly task: number; readonly picked: number | null }
  /** Ships an order: refused unless something of it was picked. */
  | { readonly _tag: "Ship"; readonly order: number }
  /** `POST /putaway-tasks` of a content at a receiving location (its position among those). */
  | { readonly _tag: "Putaway"; readonly content: number }
  /**
   * A Move task of a content to a location: `qty` modulo the content's available + 1, where 0 asks
   * one unit more than is available (a refusal). `by` names the source by `content_id`, or by
   * SKU and location (`sku`), and tag too (`tag`).
   */
  | {
    readonly _tag: "Move"
    readonly content: number
    readonly qty: number
    readonly to: number
    readonly by: "content" | "sku" | "tag"
  }
  /**
   * Confirms an Open movement task: whole when `qty` is null, else 1 + `qty` modulo its quantity + 1
   * (its quantity + 1: a refusal); to the planned destination when `to` is null, else to that one.
   */
  | { readonly _tag: "ConfirmMove"; readonly task: number; readonly qty: number | null; readonly to: number | null }
  /** Cancels an Open movement task. */
  | { readonly _tag: "CancelMove"; readonly task: number }
  /** `POST /locations/:id/move-all` from one location to another. */
  | { readonly _tag: "MoveAll"; readonly from: number; readonly to: number }
  /** Sets a managed location's status through `PUT /locations/:id`, its other fields kept. */
  | { readonly _tag: "SetLocationStatus"; readonly location: number; readonly status: SettableStatus }
  /**
   * `PUT /pick-faces/:sku_id/:loc_id` of a SKU at a pick face (`face`: among the state's pick
   * faces, `World.faces`): `max_qty` is `min_qty + span`.
   */
  | {
    readonly _tag: "SetPickFace"
    readonly sku: number
    readonly face: number
    readonly min_qty: number
    readonly span: number
    readonly replenish_multiple: number | null
  }
  /** `POST /replenishments/run`: of one SKU, or of every face when `sku` is null. */
  | { readonly _tag: "Replenish"; readonly sku: number | null }
  /** `POST /counts` of a managed location (among `GET /locations`), of one SKU unless `sku` is null. */
  | { readonly _tag: "CreateCount"; readonly location: number; readonly sku: number | null; readonly blind: boolean }
  /**
   * `POST /counts/:id/release`, `/recount` and `DELETE /counts/:id`: `count` picks, by id, among the
   * Open counts, the Pending Approval ones, and those not over (Open, Counting, Pending Approval).
   */
  | { readonly _tag: "ReleaseCount" | "Recount" | "CancelCount"; readonly count: number }
  /**
   * `POST /counts/:id/record` of a count that is Counting or Pending Approval (`count` among those),
   * a line per entry: the count's line at position `line` counted as expected (`expected +
   * in_flight`), `by` more or less, or found stock: `by` units of a SKU (the count's, else
   * `line` among the world's) under a new tag. Entries naming one line twice keep the last.
   */
  | {
    readonly _tag: "RecordCount"
    readonly count: number
    readonly lines: ReadonlyArray<CountedLine>
  }
  /**
   * `POST /counts/:id/approve` of a Pending Approval count (`count` among those): by the actor, or
   * by a user of the site who is no admin when `admin` is false (a refusal).
   */
  | { readonly _tag: "ApproveCount"; readonly count: number; readonly reason_code: ReasonCode; readonly admin: boolean }
  /**
   * A short pick: `picked` modulo the task's quantity, with `reallocate` in the body unless null
   * (then the site setting decides) and a reason code unless null.
   */
  | {
    readonly _tag: "ShortPick"
    readonly task: number
    readonly picked: number
    readonly reallocate: boolean | null
    readonly reason_code: ShortPickReasonCode | null
  }
  /** `PUT /sites/:id/settings` of the short-pick settings. */
  | {
    readonly _tag: "SetShortPicks"
    readonly reallocate_short_picks: boolean
    readonly backorders: boolean
    readonly count_on_short_pick: boolean
  }

/** An entry of `RecordCount`: what a line counts. */
export interface CountedLine {
  readonly line: number
  readonly counted: "expected" | "more" | "less" | "found"
  readonly by: number
}

/** The kinds of operation. */
export type OpKind = Op["_tag"]

/** Bounds of `arbOps`. */
export interface ArbOpsOptions {
  readonly minLength?: number
  readonly maxLength?: number
  readonly maxQty?: number
  /**
   * How often each kind comes, relative to the others (0: never). Kinds not named keep their
   * default weight: 3 for wave starts, picks, moves and their confirms (each needs something
   * made before it), 2 for receipts, orders, new waves, putaway and status changes, 1 for the
   * others, and 0 for those of pick faces and counts: they are opt-in (`cycleWeights`), so the
   * sequences of a seed stay what they were before they existed.
   */
  readonly weights?: Partial<Record<OpKind, number>>
}

const defaultWeights: Record<OpKind, number> = {
  Receive: 2,
  Adjust: 1,
  AddOrder: 2,
  CreateWave: 2,
  StartWave: 3,
  DeleteWave: 1,
  ConfirmTask: 3,
  Ship: 1,
  Putaway: 2,
  Move: 3,
  ConfirmMove: 3,
  CancelMove: 1,
  MoveAll: 1,
  SetLocationStatus: 2,
  SetPickFace: 0,
  Replenish: 0,
  CreateCount: 0,
  ReleaseCount: 0,
  RecordCount: 0,
  ApproveCount: 0,
  Recount: 0,
  CancelCount: 0,
  ShortPick: 0,
  SetShortPicks: 0
}

/** Every kind of operation, in the order `arbOps` weighs them. */
export const opKinds = Object.keys(defaultWeights) as ReadonlyArray<OpKind>

/**
 * The weights that turn pick faces and counts on (`arbOps({ weights: cycleWeights })`): faces
 * set and replenished, counts created, released, recorded (most often: a count needs a release
 * and a record to end), approved, recounted and cancelled.
 */
export const cycleWeights: Partial<Record<OpKind, number>> = {
  SetPickFace: 2,
  Replenish: 3,
  CreateCount: 3,
  ReleaseCount: 4,
  RecordCount: 5,
  ApproveCount: 3,
  Recount: 1,
  CancelCount: 1
}

/**
 * The weights that turn short picks on (`arbOps({ weights: shortPickWeights })`): the settings of
 * re-allocation, backorders and control counts turned on and off, short picks, and more waves,
 * picks and shipments for them to act on.
 */
export const shortPickWeights: Partial<Record<OpKind, number>> = {
  ShortPick: 5,
  SetShortPicks: 2,
  StartWave: 4,
  ConfirmTask: 3,
  Ship: 3,
  AddOrder: 3
}

/**
 * Sequences of operations: receipts (with and without putaway) and adjustments, new orders,
 * waves created, started and deleted, picks confirmed in full or short, orders shipped, putaway,
 * moves by content, SKU or tag, movement tasks confirmed (whole, partial, elsewhere) and
 * cancelled, locations emptied, and location statuses changed.
 */
export const arbOps = (options: ArbOpsOptions = {}): fc.Arbitrary<ReadonlyArray<Op>> => {
  const maxQty = options.maxQty ?? 20
  const qty = fc.integer({ min: 1, max: maxQty })
  const kinds: Record<OpKind, fc.Arbitrary<Op>> = {
    Receive: fc.record({
      _tag: fc.constant("Receive" as const),
      sku: fc.nat(),
      qty,
      expiry_in_days: fc.option(fc.integer({ min: -3, max: 30 }), { nil: null }),
      putaway: fc.option(fc.boolean(), { nil: null })
    }),
    Adjust: fc.record({
      _tag: fc.constant("Adjust" as const),
      content: fc.nat(),
      qty: fc.integer({ min: -maxQty, max: maxQty }).filter((n) => n !== 0)
    }),
    AddOrder: fc.record({ _tag: fc.constant("AddOrder" as const), sku: fc.nat(), qty }),
    CreateWave: fc.record({ _tag: fc.constant("CreateWave" as const) }),
    StartWave: fc.record({ _tag: fc.constant("StartWave" as const), wave: fc.nat() }),
    DeleteWave: fc.record({ _tag: fc.constant("DeleteWave" as const), wave: fc.nat() }),
    ConfirmTask: fc.record({
      _tag: fc.constant("ConfirmTask" as const),
      task: fc.nat(),
      picked: fc.option(fc.nat(maxQty), { nil: null })
    }),
    Ship: fc.record({ _tag: fc.constant("Ship" as const), order: fc.nat() }),
    Putaway: fc.record({ _tag: fc.constant("Putaway" as const), content: fc.nat() }),
    Move: fc.record({
      _tag: fc.constant("Move" as const),
      content: fc.nat(),
      qty: fc.nat(maxQty),
      to: fc.nat(),
      by: fc.constantFrom("content" as const, "content" as const, "sku" as const, "tag" as const)
    }),
    ConfirmMove: fc.record({
      _tag: fc.constant("ConfirmMove" as const),
      task: fc.nat(),
      qty: fc.option(fc.nat(maxQty), { nil: null, freq: 2 }),
      to: fc.oneof({ arbitrary: fc.constant(null), weight: 3 }, { arbitrary: fc.nat(), weight: 1 })
    }),
    CancelMove: fc.record({ _tag: fc.constant("CancelMove" as const), task: fc.nat() }),
    MoveAll: fc.record({ _tag: fc.constant("MoveAll" as const), from: fc.nat(), to: fc.nat() }),
    SetLocationStatus: fc.record({
      _tag: fc.constant("SetLocationStatus" as const),
      location: fc.nat(),
      status: fc.constantFrom<SettableStatus>("Active", "Blocked In", "Blocked Out", "Blocked")
    }),
    SetPickFace: fc.record({
      _tag: fc.constant("SetPickFace" as const),
      sku: fc.nat(),
      face: fc.nat(),
      min_qty: fc.nat(maxQty),
      span: qty,
      replenish_multiple: fc.option(fc.integer({ min: 1, max: 4 }), { nil: null, freq: 2 })
    }),
    Replenish: fc.record({
      _tag: fc.constant("Replenish" as const),
      sku: fc.option(fc.nat(), { nil: null, freq: 2 })
    }),
    CreateCount: fc.record({
      _tag: fc.constant("CreateCount" as const),
      location: fc.nat(),
      sku: fc.option(fc.nat(), { nil: null }),
      blind: fc.boolean()
    }),
    ReleaseCount: fc.record({ _tag: fc.constant("ReleaseCount" as const), count: fc.nat() }),
    RecordCount: fc.record({
      _tag: fc.constant("RecordCount" as const),
      count: fc.nat(),
      lines: fc.array(
        fc.record({
          line: fc.nat(),
          counted: fc.constantFrom(
            "expected" as const,
            "expected" as const,
            "more" as const,
            "less" as const,
            "found" as const
          ),
          by: qty
        }),
        { minLength: 1, maxLength: 3 }
      )
    }),
    ApproveCount: fc.record({
      _tag: fc.constant("ApproveCount" as const),
      count: fc.nat(),
      reason_code: fc.constantFrom(...ReasonCodes),
      admin: fc.oneof({ arbitrary: fc.constant(true), weight: 3 }, { arbitrary: fc.constant(false), weight: 1 })
    }),
    Recount: fc.record({ _tag: fc.constant("Recount" as const), count: fc.nat() }),
    CancelCount: fc.record({ _tag: fc.constant("CancelCount" as const), count: fc.nat() }),
    ShortPick: fc.record({
      _tag: fc.constant("ShortPick" as const),
      task: fc.nat(),
      picked: fc.nat(maxQty),
      reallocate: fc.option(fc.boolean(), { nil: null, freq: 2 }),
      reason_code: fc.option(fc.constantFrom(...ShortPickReasonCodes), { nil: null })
    }),
    SetShortPicks: fc.record({
      _tag: fc.constant("SetShortPicks" as const),
      reallocate_short_picks: fc.boolean(),
      backorders: fc.boolean(),
      count_on_short_pick: fc.boolean()
    })
  }
  const weights = { ...defaultWeights, ...options.weights }
  const weighted = (Object.keys(kinds) as Array<OpKind>)
    .filter((kind) => weights[kind] > 0)
    .map((kind) => ({ arbitrary: kinds[kind], weight: weights[kind] }))
  return fc.array(fc.oneof(...weighted), { minLength: options.minLength ?? 0, maxLength: options.maxLength ?? 12 })
}
