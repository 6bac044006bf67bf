/**
 * The port through which putaway fills pick faces up to their `max_qty`. Movement declares it and
 * replenishment, which keeps the faces' settings and opens its Replenish tasks through movement,
 * implements it (`replenishment/PickFaceRoomsLive.ts`).
 */
import { Context, type Effect } from "effect"

/** A pick face a putaway may fill, and how much more of its SKU it takes (the planner counts it down). */
export interface PickFaceRoom {
  readonly loc_id: string
  room: number
}

export class PickFaceRooms extends Context.Tag("@wms/core/PickFaceRooms")<PickFaceRooms, {
  /** Per SKU among `skuIds`, the locations of its pick faces, by loc_id (byte order), not locked; none: absent. */
  readonly ofSkus: (
    siteId: string,
    skuIds: ReadonlyArray<string>
  ) => Effect.Effect<ReadonlyMap<string, ReadonlyArray<string>>>
  /**
   * Locks the face settings at the locations, which the caller locked first (the order
   * replenishment keeps), and reads under that lock the room each face of the SKU has left up to
   * its `max_qty`, in loc_id order.
   */
  readonly lockRooms: (
    siteId: string,
    skuId: string,
    locIds: ReadonlyArray<string>
  ) => Effect.Effect<ReadonlyArray<PickFaceRoom>>
}>() {}
