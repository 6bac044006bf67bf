/**
 * The store port for pick-face settings, what faces hold, and the reserve stock that fills them.
 */
import { Context, type Effect, type Option } from "effect"
import type { Scope } from "../shared/Tenancy.js"
import type { ListWindow } from "../shared/Window.js"
import type { Content } from "../stock/InventoryRepository.js"
import type { FaceStock, PickFaceFilter, StoredPickFace } from "./PickFace.js"

/** A setting with what its face holds of its SKU. */
export type PickFaceWithStock = StoredPickFace & FaceStock

export class PickFaceRepository extends Context.Tag("@wms/core/PickFaceRepository")<PickFaceRepository, {
  /**
   * The settings of SKUs `scope` may see that pass the filter (`zone`: of the face's location), by
   * (sku_id, loc_id) in byte order, each with its face's stock.
   */
  readonly list: (
    scope: Scope,
    filter: PickFaceFilter,
    window: ListWindow
  ) => Effect.Effect<ReadonlyArray<PickFaceWithStock>>
  /** The setting with its face's stock, not locked. */
  readonly find: (siteId: string, skuId: string, locId: string) => Effect.Effect<Option.Option<PickFaceWithStock>>
  /** The settings among the (sku_id, loc_id) pairs, not locked: whether a change touched a face at all. */
  readonly findMany: (
    siteId: string,
    pairs: ReadonlyArray<{ readonly sku_id: string; readonly loc_id: string }>
  ) => Effect.Effect<ReadonlyArray<StoredPickFace>>
  /** The settings of the SKUs, by sku_id and loc_id (byte order), not locked: their faces a putaway may fill. */
  readonly ofSkus: (siteId: string, skuIds: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<StoredPickFace>>
  /** The settings at faces a wave's claims take stock from. */
  readonly allocatedByWave: (siteId: string, waveId: number) => Effect.Effect<ReadonlyArray<StoredPickFace>>
  /**
   * Every setting at the locations, locked for update in (loc_id, sku_id) order until the
   * transaction ends: one decider per face location at a time, across processes.
   */
  readonly lockAt: (siteId: string, locIds: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<StoredPickFace>>
  /** What the face holds of the SKU, read now (after the caller's locks). */
  readonly faceStock: (siteId: string, skuId: string, locId: string) => Effect.Effect<FaceStock>
  /** What each face at the locations holds of its SKU, read now (after the caller's locks): `faceStock` of each setting there. */
  readonly stockAt: (
    siteId: string,
    locIds: ReadonlyArray<string>
  ) => Effect.Effect<ReadonlyArray<{ readonly sku_id: string; readonly loc_id: string; readonly stock: FaceStock }>>
  /**
   * The reserve stock of the SKUs, locked for update in content_id order: contents with available
   * stock at managed `Storage` locations. Status and expiry are the caller's to check.
   */
  readonly lockReserve: (siteId: string, skuIds: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<Content>>
  /** Inserts or replaces the setting. */
  readonly upsert: (face: StoredPickFace) => Effect.Effect<void>
  /** Deletes the setting; false when there was none. */
  readonly remove: (siteId: string, skuId: string, locId: string) => Effect.Effect<boolean>
}>() {}
