/**
 * The location master (extension, warehouse cycle §3.1): a location's type, zone, walk sequence,
 * capacity and status, as POST and PUT write it and as the API shows it with its occupancy. A
 * `loc_id` without a record is unmanaged and behaves as before locations existed: no capacity,
 * no status, never a putaway target.
 */
import { Schema } from "effect"
import { OptionalClientId, OptionalMasterText, TextId, TextIdFromPath } from "../masterdata/MasterData.js"
import { ListWindow } from "../shared/Window.js"

export const LocationTypes = [
  "Receiving",
  "Storage",
  "PickFace",
  "Staging",
  "Dock",
  "LostAndFound",
  "Quarantine"
] as const
export const LocationType = Schema.Literal(...LocationTypes).annotations({
  message: () => ({ message: `must be one of ${LocationTypes.join(", ")}`, override: true })
})
export type LocationType = typeof LocationType.Type

export const LocationStatuses = ["Active", "Blocked In", "Blocked Out", "Blocked", "Counting"] as const
export const LocationStatus = Schema.Literal(...LocationStatuses).annotations({
  message: () => ({ message: `must be one of ${LocationStatuses.join(", ")}`, override: true })
})
export type LocationStatus = typeof LocationStatus.Type

/** Whether stock may arrive at a location of this status: receipts, positive adjustments, task destinations. */
export const takesStockIn = (status: LocationStatus): boolean => status === "Active" || status === "Blocked Out"

/** Whether stock may leave a location of this status: allocation, task sources, negative adjustments. */
export const letsStockOut = (status: LocationStatus): boolean => status === "Active" || status === "Blocked In"

const WholeNumber = Schema.Number.pipe(
  Schema.filter((n) => Number.isInteger(n) && n >= 0 && n <= 2147483647, {
    message: () => "must be a whole number from 0 to 2147483647",
    jsonSchema: { type: "integer", minimum: 0, maximum: 2147483647 }
  })
)
const Measure = Schema.Number.pipe(
  Schema.filter((n) => Number.isFinite(n) && n >= 0, {
    message: () => "must be a number of at least 0",
    jsonSchema: { minimum: 0 }
  })
)
const optionalNull = <A, I>(schema: Schema.Schema<A, I>) =>
  Schema.optionalWith(Schema.NullOr(schema), { default: () => null })

const writableFields = {
  loc_type: LocationType,
  description: OptionalMasterText,
  zone: OptionalMasterText,
  sequence: Schema.optionalWith(WholeNumber, { default: () => 0, nullable: true }),
  max_tags: optionalNull(WholeNumber),
  max_weight: optionalNull(Measure),
  max_volume: optionalNull(Measure),
  status: Schema.optionalWith(LocationStatus, { default: () => "Active" as const, nullable: true }),
  client_id: OptionalClientId
}

/** The body of `POST /locations`. */
export const NewLocation = Schema.Struct({ loc_id: TextId, ...writableFields })
export type NewLocation = typeof NewLocation.Type

/**
 * The body of `PUT /locations/:id`: it replaces every writable field (an omitted optional one
 * becomes null, an omitted status `Active`); `loc_id`, when sent, repeats the path's id.
 */
export const LocationUpdate = Schema.Struct({ loc_id: Schema.optional(Schema.String), ...writableFields })
export type LocationUpdate = typeof LocationUpdate.Type

/** A location as the store keeps it, without its occupancy. */
export interface StoredLocation {
  readonly site_id: string
  readonly loc_id: string
  readonly description: string | null
  readonly loc_type: LocationType
  readonly zone: string | null
  readonly sequence: number
  readonly max_tags: number | null
  readonly max_weight: number | null
  readonly max_volume: number | null
  readonly status: LocationStatus
  readonly client_id: string | null
}

/**
 * What is at a location and on its way there: stock on hand, and the open movement tasks whose
 * destination it is (inbound). Weights and volumes count `each_weight` and `each_volume` of the SKU
 * (none: 0).
 */
export interface Occupancy {
  readonly qty_on_hand: number
  /** Distinct tags of the stock on hand. */
  readonly tags: number
  readonly weight: number
  readonly volume: number
  readonly inbound_qty: number
  /** Distinct tags of the open inbound tasks that are not on hand already. */
  readonly inbound_tags: number
  readonly inbound_weight: number
  readonly inbound_volume: number
  /** Every tag on hand or inbound: a task bringing one of these adds no tag. */
  readonly tag_ids: ReadonlyArray<string>
  /** Every SKU and client on hand or inbound: putaway mixes no other SKU of another client. */
  readonly holdings: ReadonlyArray<{ readonly sku_id: string; readonly client_id: string | null }>
}

/** A managed location with what is at it and on its way to it. */
export interface LocationWithOccupancy extends StoredLocation {
  /** When a count of the location last completed (UTC ISO instant); null: never. Set by counts only. */
  readonly last_counted: string | null
  readonly occupancy: Occupancy
}

/** A location as `GET /locations` and `GET /locations/:id` show it. */
export const LocationRecord = Schema.Struct({
  loc_id: Schema.String,
  description: Schema.NullOr(Schema.String),
  loc_type: LocationType,
  zone: Schema.NullOr(Schema.String),
  pick_face: Schema.Boolean,
  sequence: Schema.Number,
  max_tags: Schema.NullOr(Schema.Number),
  max_weight: Schema.NullOr(Schema.Number),
  max_volume: Schema.NullOr(Schema.Number),
  status: LocationStatus,
  client_id: Schema.NullOr(Schema.String),
  qty_on_hand: Schema.Number,
  tags: Schema.Number,
  weight: Schema.Number,
  volume: Schema.Number,
  inbound_qty: Schema.Number,
  inbound_tags: Schema.Number,
  over_capacity: Schema.Boolean,
  last_counted: Schema.NullOr(Schema.String)
})
export type LocationRecord = typeof LocationRecord.Type

/** The filters of `GET /locations`. */
export interface LocationFilter {
  readonly zone?: string | undefined
  readonly loc_type?: LocationType | undefined
  readonly status?: LocationStatus | undefined
}

/** The query of `GET /locations`: optional `zone`, `loc_type` and `status`, and a list window. */
export const LocationQuery = Schema.Struct({
  zone: Schema.optional(TextIdFromPath),
  loc_type: Schema.optional(LocationType),
  status: Schema.optional(LocationStatus),
  ...ListWindow.fields
})
export type LocationQuery = typeof LocationQuery.Type
