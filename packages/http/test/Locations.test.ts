import { SqlClient } from "@effect/sql"
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { serverOnApiTestStores } from "../../../testing/server.js"
import { expect204, expectError, expectStatus, makeTenants } from "../../../testing/world.js"

/** A location record as POST answers it with only `loc_id` and `loc_type` given. */
const bare = (locId: string, locType: string) => ({
  loc_id: locId,
  description: null,
  loc_type: locType,
  zone: null,
  pick_face: locType === "PickFace",
  sequence: 0,
  max_tags: null,
  max_weight: null,
  max_volume: null,
  status: "Active",
  client_id: null,
  qty_on_hand: 0,
  tags: 0,
  weight: 0,
  volume: 0,
  inbound_qty: 0,
  inbound_tags: 0,
  over_capacity: false,
  last_counted: null
})

/** Sets a location's status in the store: `Counting` straight, without the count that would set it. */
const setStatus = (siteId: string, locId: string, status: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql`UPDATE locations SET status = ${status} WHERE site_id = ${siteId} AND loc_id = ${locId}`
  }).pipe(Effect.orDie)

for (const [label, server] of serverOnApiTestStores) {
  layer(server, { timeout: 120_000 })(`locations on ${label}`, (it) => {
    it.effect("POST answers 201 with the record and its Location, which GET reads; the list filters", () =>
      Effect.gen(function*() {
        const t = yield* makeTenants
        const created = yield* t.P.post("/locations", {
          loc_id: "BAY 1/2",
          loc_type: "Storage",
          description: "Bay one, level two",
          zone: "A",
          sequence: 10,
          max_tags: 2,
          max_weight: 500.5,
          max_volume: null
        })
        expectStatus(created, 201)
        const record = {
          ...bare("BAY 1/2", "Storage"),
          description: "Bay one, level two",
          zone: "A",
          sequence: 10,
          max_tags: 2,
          max_weight: 500.5
        }
        assert.deepStrictEqual(created.body, record)
        assert.strictEqual(created.headers["location"], "/locations/BAY%201%2F2")
        const read = yield* t.P.get(created.headers["location"]!)
        assert.deepStrictEqual([read.status, read.body], [200, record])

        expectStatus(yield* t.P.post("/locations", { loc_id: "PF-1", loc_type: "PickFace", zone: "B" }), 201)
        expectStatus(yield* t.P.post("/locations", { loc_id: "IN", loc_type: "Receiving", status: "Blocked Out" }), 201)
        const ids = (path: string) => Effect.map(t.P.get(path), (r) => r.body.map((l: { loc_id: string }) => l.loc_id))
        assert.deepStrictEqual(yield* ids("/locations"), ["BAY 1/2", "IN", "PF-1"])
        assert.deepStrictEqual(yield* ids("/locations?zone=B"), ["PF-1"])
        assert.deepStrictEqual(yield* ids("/locations?loc_type=Receiving"), ["IN"])
        assert.deepStrictEqual(yield* ids("/locations?status=Blocked%20Out"), ["IN"])
        assert.deepStrictEqual(yield* ids("/locations?limit=1&offset=1"), ["IN"])
        assert.isTrue((yield* t.P.get("/locations/PF-1")).body.pick_face)
        // Another site has locations of its own.
        assert.deepStrictEqual((yield* t.F.get("/locations")).body, [])
        expectError(yield* t.F.get("/locations/PF-1"), 404, "Location with id PF-1 not found")
      }))

    it.effect("PUT replaces every writable field and DELETE makes the location unmanaged again", () =>
      Effect.gen(function*() {
        const t = yield* makeTenants
        expectStatus(
          yield* t.P.post("/locations", { loc_id: "S-1", loc_type: "Storage", zone: "A", max_tags: 3 }),
          201
        )
        expect204(yield* t.P.put("/locations/S-1", { loc_type: "Staging", status: "Blocked In", sequence: 4 }))
        assert.deepStrictEqual((yield* t.P.get("/locations/S-1")).body, {
          ...bare("S-1", "Staging"),
          status: "Blocked In",
          sequence: 4
        })
        // A record read with GET may be sent back as it is.
        const read = (yield* t.P.get("/locations/S-1")).body
        expect204(yield* t.P.put("/locations/S-1", { ...read, status: "Active" }))
        assert.strictEqual((yield* t.P.get("/locations/S-1")).body.status, "Active")
        expect204(yield* t.P.del("/locations/S-1"))
        expectError(yield* t.P.get("/locations/S-1"), 404, "Location with id S-1 not found")
        assert.deepStrictEqual((yield* t.P.get("/locations")).body, [])
      }))

    it.effect("each refusal is its documented 4xx, and writes nothing", () =>
      Effect.gen(function*() {
        const t = yield* makeTenants
        expectStatus(yield* t.P.post("/locations", { loc_id: "S-1", loc_type: "Storage" }), 201)
        const before = (yield* t.P.get("/locations")).body

        expectError(yield* t.P.post("/locations", { loc_type: "Storage" }), 400, "Missing field loc_id")
        expectError(yield* t.P.post("/locations", { loc_id: "S-2" }), 400, "Missing field loc_type")
        expectError(
          yield* t.P.post("/locations", { loc_id: "S-2", loc_type: "Shelf" }),
          400,
          "Invalid field loc_type: must be one of Receiving, Storage, PickFace, Staging, Dock, LostAndFound, Quarantine"
        )
        expectError(
          yield* t.P.post("/locations", { loc_id: "S-2", loc_type: "Storage", status: "Closed" }),
          400,
          "Invalid field status: must be one of Active, Blocked In, Blocked Out, Blocked, Counting"
        )
        const badTags = yield* t.P.post("/locations", { loc_id: "S-2", loc_type: "Storage", max_tags: -1 })
        expectError(badTags, 400, "Invalid field max_tags: must be a whole number from 0 to 2147483647")
        const badClient = yield* t.P.post("/locations", { loc_id: "S-2", loc_type: "Storage", client_id: t.f1 })
        expectStatus(badClient, 400)
        assert.match(badClient.body.message, /^Invalid field client_id: /)
        expectError(
          yield* t.P.post("/locations", { loc_id: "S-1", loc_type: "Dock" }),
          409,
          "Location S-1 already exists"
        )
        expectError(
          yield* t.P.post("/locations", { loc_id: "S-2", loc_type: "Storage", status: "Counting" }),
          409,
          "Location S-2 is being counted"
        )
        expectError(
          yield* t.P.put("/locations/S-1", { loc_type: "Storage", status: "Counting" }),
          409,
          "Location S-1 is being counted"
        )
        const otherId = yield* t.P.put("/locations/S-1", { loc_id: "S-9", loc_type: "Storage" })
        expectStatus(otherId, 400)
        assert.match(otherId.body.message, /^Invalid field loc_id: /)
        expectError(yield* t.P.put("/locations/NOPE", { loc_type: "Storage" }), 404, "Location with id NOPE not found")
        expectError(yield* t.P.del("/locations/NOPE"), 404, "Location with id NOPE not found")
        expectError(yield* t.P.get("/locations/NOPE"), 404, "Location with id NOPE not found")
        assert.deepStrictEqual((yield* t.P.get("/locations")).body, before)

        // A location in a count: neither PUT nor DELETE touches it.
        yield* setStatus(t.p, "S-1", "Counting")
        expectError(
          yield* t.P.put("/locations/S-1", { loc_type: "Storage" }),
          409,
          "Location S-1 is being counted"
        )
        expectError(yield* t.P.del("/locations/S-1"), 409, "Location S-1 is being counted")
        assert.strictEqual((yield* t.P.get("/locations/S-1")).body.status, "Counting")
      }))

    it.effect("a location holding stock or open tasks keeps its type and cannot be deleted", () =>
      Effect.gen(function*() {
        const t = yield* makeTenants
        expect204(yield* t.P.post("/skus", { sku_id: "BOLT", description: "Bolt" }))
        expectStatus(yield* t.P.post("/locations", { loc_id: "S-1", loc_type: "Storage" }), 201)
        expectStatus(yield* t.P.post("/locations", { loc_id: "S-2", loc_type: "Storage" }), 201)
        expect204(yield* t.P.post("/inventory/adjustments", { sku_id: "BOLT", loc_id: "S-1", qty: 5 }))
        const inUse = "Location S-1 holds stock or open tasks"
        expectError(yield* t.P.del("/locations/S-1"), 409, inUse)
        expectError(yield* t.P.put("/locations/S-1", { loc_type: "Dock" }), 409, inUse)
        // The other fields may change.
        expect204(yield* t.P.put("/locations/S-1", { loc_type: "Storage", zone: "Z" }))

        // An open task to S-2 holds it too, until the task is done.
        const [content] = (yield* t.P.get("/inventory/overview")).body
        const task = yield* t.P.post("/movement-tasks", { content_id: content.content_id, qty: 5, to_loc_id: "S-2" })
        expectStatus(task, 201)
        expectError(yield* t.P.del("/locations/S-2"), 409, "Location S-2 holds stock or open tasks")
        expect204(yield* t.P.del(`/movement-tasks/${task.body.id}`))
        expect204(yield* t.P.del("/locations/S-2"))
        // Emptied, S-1 may go.
        expect204(yield* t.P.post("/inventory/adjustments", { sku_id: "BOLT", loc_id: "S-1", qty: -5 }))
        expect204(yield* t.P.del("/locations/S-1"))
      }))

    it.effect("a location shows what is on hand and inbound, by weight, volume and tags, and when it is over capacity", () =>
      Effect.gen(function*() {
        const t = yield* makeTenants
        expect204(yield* t.P.post("/skus", { sku_id: "CAN", description: "Can", each_weight: 0.5, each_volume: 400 }))
        expectStatus(
          yield* t.P.post("/locations", { loc_id: "S-1", loc_type: "Storage", max_tags: 2, max_weight: 10 }),
          201
        )
        for (const tag of ["P1", "P2"]) {
          expect204(yield* t.P.post("/inventory/adjustments", { sku_id: "CAN", loc_id: "S-1", tag_id: tag, qty: 6 }))
        }
        expect204(yield* t.P.post("/inventory/adjustments", { sku_id: "CAN", loc_id: "IN", tag_id: "P3", qty: 4 }))
        const inbound = (yield* t.P.get("/inventory/overview")).body.find((c: { tag_id: string }) => c.tag_id === "P3")
        // 12 on hand weigh 6 kg: 4 more inbound fit the 10 kg exactly, on a third tag over max_tags 2.
        expectError(
          yield* t.P.post("/movement-tasks", { content_id: inbound.content_id, qty: 4, to_loc_id: "S-1" }),
          409,
          "Location S-1 has no room for 4 of CAN"
        )
        expect204(yield* t.P.put("/locations/S-1", { loc_type: "Storage", max_tags: 3, max_weight: 10 }))
        expectStatus(
          yield* t.P.post("/movement-tasks", { content_id: inbound.content_id, qty: 4, to_loc_id: "S-1" }),
          201
        )
        const location = (yield* t.P.get("/locations/S-1")).body
        assert.deepStrictEqual(
          [location.qty_on_hand, location.tags, location.weight, location.volume, location.inbound_qty],
          [12, 2, 6, 4800, 4]
        )
        assert.deepStrictEqual([location.inbound_tags, location.over_capacity], [1, false])
        // An adjustment is a fact: never refused for capacity, and shown as over capacity.
        expect204(yield* t.P.post("/inventory/adjustments", { sku_id: "CAN", loc_id: "S-1", tag_id: "P1", qty: 6 }))
        const over = (yield* t.P.get("/locations/S-1")).body
        assert.deepStrictEqual([over.qty_on_hand, over.weight, over.over_capacity], [18, 9, true])
        assert.deepStrictEqual((yield* t.P.get("/locations?status=Active")).body, [over])
      }))

    it.effect("a client scope sees and maintains the site's locations, with every client's stock counted", () =>
      Effect.gen(function*() {
        const t = yield* makeTenants
        expectStatus(yield* t.F1.post("/locations", { loc_id: "S-1", loc_type: "Storage", client_id: t.f1 }), 201)
        expect204(yield* t.F2.post("/skus", { sku_id: "NUT", description: "Nut" }))
        expect204(yield* t.F2.post("/inventory/adjustments", { sku_id: "NUT", loc_id: "S-1", qty: 3 }))
        for (const scope of [t.F, t.F1, t.F2]) {
          const location = (yield* scope.get("/locations/S-1")).body
          assert.deepStrictEqual([location.client_id, location.qty_on_hand], [t.f1, 3])
        }
        expect204(yield* t.F2.put("/locations/S-1", { loc_type: "Storage", zone: "B", client_id: t.f1 }))
        assert.strictEqual((yield* t.F.get("/locations/S-1")).body.zone, "B")
      }))
  })
}
