/**
 * The engine without a server: the warehouse services on the store a database URL names. This is
 * the entry point for applications that embed the engine.
 */
import {
  Administration,
  AllowPrivateWebhookTargets,
  Carriers,
  ControlCountsLive,
  CountInFlightLive,
  Counts,
  EventSubscriptions,
  HoldDeallocationLive,
  Holds,
  Inventory,
  Locations,
  MovementTasks,
  OrderAllocationsLive,
  Orders,
  Partners,
  PickFaceRoomsLive,
  PickFaces,
  Picking,
  PreAdvices,
  ReceiptPutawayLive,
  Receiving,
  Replenishment,
  Returns,
  ShippingUnits,
  SiteSettingsService,
  SkuGroups,
  Skus,
  TimeZone,
  Transfers,
  WaveDefinitions,
  Waves,
  Webhooks
} from "@wms/core"
import { Layer } from "effect"
import * as NodePasswordHasher from "./auth/NodePasswordHasher.js"
import * as Store from "./Store.js"

export interface WarehouseOptions {
  /** `sqlite:<file>`, `sqlite::memory:` or a `postgres://` URL. */
  readonly database: string
  /** The IANA time zone of every date-time the engine shows (default `UTC`). */
  readonly timeZone?: string
  /**
   * log2 of scrypt's N for new password hashes (default 17, OWASP's minimum; at least 14). Each
   * hash and login costs about 2^(cost − 17) · 0.35 s of CPU on a thread of libuv's pool.
   */
  readonly passwordHashCost?: number
  /**
   * Lets webhooks target loopback, private, link-local and other internal addresses (default
   * false), for development and tests; cloud metadata stays refused. The webhook worker run beside
   * these services (`WebhookWorker.layer`) follows the same switch.
   */
  readonly allowPrivateWebhookTargets?: boolean
}

/**
 * Every service of the warehouse, on the ports of a store; a service using another comes after it.
 * Orders delete an allocated order through the waves (`OrderAllocationsLive`), and the other ports
 * a lower feature declares for a higher one come from the higher one: a receipt's putaway from
 * movement (a return's restock too), a putaway's pick faces from replenishment, a confirmation's
 * in-flight stock and a short pick's control count from the counts, and a hold's deallocation from picking.
 */
const services = Layer.mergeAll(Orders.Default).pipe(
  Layer.provide(OrderAllocationsLive),
  Layer.provideMerge(Layer.mergeAll(Waves.Default, Receiving.Default, Returns.Default)),
  Layer.provideMerge(Layer.mergeAll(
    Administration.Default,
    Partners.Default,
    Carriers.Default,
    SkuGroups.Default,
    Skus.Default,
    PreAdvices.Default,
    Inventory.Default,
    Locations.Default,
    MovementTasks.Default,
    Counts.Default,
    SiteSettingsService.Default,
    WaveDefinitions.Default,
    PickFaces.Default,
    Picking.Default,
    ShippingUnits.Default,
    Holds.Default,
    Transfers.Default,
    Webhooks.Default,
    EventSubscriptions.Default,
    ReceiptPutawayLive
  )),
  // Wave starts and picks replenish pick faces in their transactions.
  Layer.provideMerge(Replenishment.Default),
  Layer.provideMerge(Layer.mergeAll(PickFaceRoomsLive, CountInFlightLive, ControlCountsLive, HoldDeallocationLive))
)

/**
 * The warehouse services on a migrated store. The store's ports and its `SqlClient` are part of
 * the output, so an application may run its own queries in the same transactions. Each call
 * builds its own services: two warehouses in one process never share one.
 */
export const layer = (options: WarehouseOptions) =>
  Layer.fresh(services).pipe(
    Layer.provideMerge(Layer.mergeAll(
      NodePasswordHasher.layerWithCost(options.passwordHashCost ?? NodePasswordHasher.defaultCost),
      Layer.succeed(TimeZone, options.timeZone ?? "UTC"),
      Layer.succeed(AllowPrivateWebhookTargets, options.allowPrivateWebhookTargets ?? false)
    )),
    Layer.provideMerge(Store.fromUrl(options.database))
  )
