/**
 * Replenishment's side of `PickFaceRooms`: a face's room for putaway is what its level (`levelOf`,
 * open tasks to it counted) lacks of its `max_qty`.
 */
import { Effect, Layer } from "effect"
import { type PickFaceRoom, PickFaceRooms } from "../movement/PickFaceRooms.js"
import { levelOf } from "./PickFace.js"
import { PickFaceRepository } from "./PickFaceRepository.js"

export const PickFaceRoomsLive = Layer.effect(
  PickFaceRooms,
  Effect.map(PickFaceRepository, (pickFaces) => ({
    ofSkus: (siteId, skuIds) =>
      skuIds.length === 0 ? Effect.succeed(new Map()) : Effect.map(pickFaces.ofSkus(siteId, skuIds), (faces) => {
        const bySku = new Map<string, Array<string>>()
        for (const face of faces) {
          const locIds = bySku.get(face.sku_id)
          if (locIds === undefined) bySku.set(face.sku_id, [face.loc_id])
          else locIds.push(face.loc_id)
        }
        return bySku
      }),
    lockRooms: Effect.fnUntraced(function*(siteId: string, skuId: string, locIds: ReadonlyArray<string>) {
      const rooms: Array<PickFaceRoom> = []
      for (const face of yield* pickFaces.lockAt(siteId, locIds)) {
        if (face.sku_id !== skuId) continue
        const stock = yield* pickFaces.faceStock(siteId, face.sku_id, face.loc_id)
        rooms.push({ loc_id: face.loc_id, room: Math.max(0, face.max_qty - levelOf(stock)) })
      }
      return rooms
    })
  }))
)
