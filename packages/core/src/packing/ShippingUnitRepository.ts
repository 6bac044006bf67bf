/**
 * The store port for shipping units (spec §4). Every write to an order's units runs under the
 * order's row lock (`OrderRepository.lock`), then the lock of the order lines it packs.
 */
import { Context, type Effect, type Option } from "effect"
import type { Owner, Scope } from "../shared/Tenancy.js"
import type { ListWindow } from "../shared/Window.js"
import type { UnitType } from "./ShippingUnit.js"

/** A line of a stored unit, with the `each_weight` of its SKU (null: the SKU has none, or is gone). */
export interface ShippingUnitLineRow {
  readonly order_line: number
  readonly sku_id: string
  readonly qty: number
  readonly each_weight: number | null
}

/** A unit as stored, with its order's id and its lines by order line. */
export interface ShippingUnitRow {
  readonly id: number
  readonly site_id: string
  readonly client_id: string | null
  readonly sscc: string
  readonly order_ref: number
  readonly order_id: string
  readonly unit_type: UnitType
  readonly parent_id: number | null
  readonly status_id: number
  readonly tare_weight: number
  readonly weight: number
  readonly length: number | null
  readonly width: number | null
  readonly height: number | null
  readonly tracking_number: string | null
  /** UTC ISO text. */
  readonly created_at: string
  readonly created_by: string
  readonly lines: ReadonlyArray<ShippingUnitLineRow>
}

/** A unit to insert; it starts Open, with no lines, weighing its tare. */
export interface NewShippingUnitRow {
  readonly owner: Owner
  readonly sscc: string
  readonly order_ref: number
  readonly unit_type: UnitType
  readonly parent_id: number | null
  readonly tare_weight: number
  readonly created_at: string
  readonly created_by: string
}

/** An order line as packing sees it: what was picked of it and what its units hold. */
export interface PackableLine {
  readonly line: number
  readonly sku_id: string
  readonly qty_picked: number
  readonly qty_packed: number
}

/** The fields `PUT /shipping-units/:id` sets. */
export interface ShippingUnitFields {
  readonly tracking_number: string | null
  readonly length: number | null
  readonly width: number | null
  readonly height: number | null
}

/** The filters of `GET /shipping-units`. */
export interface ShippingUnitFilter {
  readonly order_id?: string | undefined
  readonly status_id?: number | undefined
}

export class ShippingUnitRepository extends Context.Tag("@wms/core/ShippingUnitRepository")<ShippingUnitRepository, {
  /** The units `scope` may see, by id. */
  readonly list: (
    scope: Scope,
    filter: ShippingUnitFilter,
    window: ListWindow
  ) => Effect.Effect<ReadonlyArray<ShippingUnitRow>>
  /** The unit when `scope` may see it. */
  readonly find: (scope: Scope, id: number) => Effect.Effect<Option.Option<ShippingUnitRow>>
  /** The units of an order, by id. */
  readonly ofOrder: (orderRef: number) => Effect.Effect<ReadonlyArray<ShippingUnitRow>>
  /**
   * Locks the order's lines of these numbers, in line order, for the rest of the transaction, and
   * yields those that exist with what their units hold.
   */
  readonly lockLines: (orderRef: number, lines: ReadonlyArray<number>) => Effect.Effect<ReadonlyArray<PackableLine>>
  /** The next serial of the site's SSCC counter, from 1; never the same twice, even across transactions. */
  readonly nextSerial: (siteId: string) => Effect.Effect<number>
  /** Inserts the unit; none when its SSCC is taken on the site. Yields its id. */
  readonly insert: (unit: NewShippingUnitRow) => Effect.Effect<Option.Option<number>>
  /** Adds `qty` of the order line to the unit, to the quantity it holds of it already. */
  readonly addLine: (
    unitId: number,
    line: { readonly order_line: number; readonly sku_id: string; readonly qty: number }
  ) => Effect.Effect<void>
  /** Removes the unit's line of the order line; false when it has none. */
  readonly removeLine: (unitId: number, orderLine: number) => Effect.Effect<boolean>
  readonly setStatus: (unitId: number, statusId: number) => Effect.Effect<void>
  readonly update: (unitId: number, fields: Partial<ShippingUnitFields>) => Effect.Effect<void>
  /** Sets the stored weights of units. */
  readonly setWeights: (weights: ReadonlyMap<number, number>) => Effect.Effect<void>
  /** Removes the unit and its lines; cartons it carried stay, without a parent. */
  readonly remove: (unitId: number) => Effect.Effect<void>
  /** Makes every unit of the order Shipped. */
  readonly shipOrder: (orderRef: number) => Effect.Effect<void>
}>() {}
