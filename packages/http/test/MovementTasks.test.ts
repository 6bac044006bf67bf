import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { Api, serverOnApiTestStores } from "../../../testing/server.js"
import { type Caller, expect204, expectError, expectStatus, makeTenants } from "../../../testing/world.js"

interface Content {
  readonly content_id: number
  readonly sku_id: string
  readonly loc_id: string
  readonly tag_id: string
  readonly qty: number
  readonly qty_allocated: number
  readonly qty_tasked_from: number
  readonly expiry_date: string | null
  readonly created_datetime: string
}

interface Transaction {
  readonly transaction_type: string
  readonly content_id: number
  readonly from_content_id: number | null
  readonly from_loc_id: string
  readonly to_loc_id: string
  readonly final_loc_id: string
  readonly qty: number
  readonly tag_id: string
  readonly notes: string | null
}

/** The scope's contents, empty ones included (the overview leaves those out), by content_id. */
const contents = (caller: Caller) => Effect.map(caller.get("/inventory/overview"), (r) => r.body as Array<Content>)

const contentAt = (caller: Caller, locId: string, tagId?: string) =>
  Effect.map(
    contents(caller),
    (all) => all.find((c) => c.loc_id === locId && (tagId === undefined || c.tag_id === tagId))!
  )

const content = (caller: Caller, contentId: number) =>
  Effect.map(caller.get(`/inventory/overview/${contentId}`), (r) => r.body as Content)

/** The transactions of the movement types, as `[type, content, from content, from, to, qty, notes]`. */
const movements = (caller: Caller) =>
  Effect.map(caller.get("/inventory/transactions"), (r) =>
    (r.body as Array<Transaction>)
      .filter((t) => ["Task", "Untask", "Putaway", "Move", "Replenish"].includes(t.transaction_type))
      .map((t) => [t.transaction_type, t.content_id, t.from_content_id, t.from_loc_id, t.to_loc_id, t.qty, t.notes]))

/** A site with the SKU `BOLT` and 10 of it at `A-1` on tag `P1`; yields the tenants and that content. */
const withStock = Effect.gen(function*() {
  const t = yield* makeTenants
  expect204(yield* t.P.post("/skus", { sku_id: "BOLT", description: "Bolt" }))
  expect204(yield* t.P.post("/inventory/adjustments", { sku_id: "BOLT", loc_id: "A-1", tag_id: "P1", qty: 10 }))
  return { t, source: yield* contentAt(t.P, "A-1") }
})

const dateTime = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/

for (const [label, server] of serverOnApiTestStores) {
  layer(server, { timeout: 120_000 })(`movement tasks on ${label}`, (it) => {
    it.effect("a Move task reserves its stock, and its confirm carries it to a content at the destination", () =>
      Effect.gen(function*() {
        const api = yield* Api
        const { source, t } = yield* withStock
        const created = yield* t.P.post("/movement-tasks", {
          content_id: source.content_id,
          qty: 4,
          to_loc_id: "B-1",
          reason: "Bay A is being repainted"
        })
        expectStatus(created, 201)
        const task = created.body
        assert.deepStrictEqual({ ...task, creation_date: "", creation_datetime: "" }, {
          id: task.id,
          task_type: "Move",
          quantity: 4,
          content_id: source.content_id,
          sku_id: "BOLT",
          tag_id: "P1",
          from_loc_id: "A-1",
          to_loc_id: "B-1",
          final_loc_id: "B-1",
          creation_date: "",
          creation_datetime: "",
          status: "Open",
          status_id: 1,
          created_by: yield* api.adminUserId,
          reason: "Bay A is being repainted",
          client_id: null
        })
        assert.match(task.creation_datetime, dateTime)
        assert.strictEqual(task.creation_date, task.creation_datetime.slice(0, 10))
        assert.strictEqual(created.headers["location"], `/movement-tasks/${task.id}`)
        assert.deepStrictEqual((yield* t.P.get(created.headers["location"]!)).body, task)
        assert.deepStrictEqual((yield* t.P.get("/movement-tasks")).body, [task])
        const reserved = yield* content(t.P, source.content_id)
        assert.deepStrictEqual([reserved.qty, reserved.qty_tasked_from], [10, 4])

        expect204(yield* t.P.post(`/movement-tasks/${task.id}/confirm`, {}))
        const moved = yield* contentAt(t.P, "B-1")
        assert.deepStrictEqual([moved.sku_id, moved.tag_id, moved.qty, moved.qty_tasked_from], ["BOLT", "P1", 4, 0])
        // Moving does not make stock younger.
        assert.strictEqual(moved.created_datetime, source.created_datetime)
        const left = yield* content(t.P, source.content_id)
        assert.deepStrictEqual([left.qty, left.qty_tasked_from], [6, 0])
        assert.deepStrictEqual(yield* movements(t.P), [
          ["Task", source.content_id, null, "A-1", "B-1", 4, `Movement task ${task.id}`],
          ["Move", moved.content_id, source.content_id, "A-1", "B-1", 4, `Movement task ${task.id}`]
        ])

        const done = (yield* t.P.get(`/movement-tasks/${task.id}`)).body
        assert.deepStrictEqual([done.status, done.status_id, done.to_loc_id, done.final_loc_id], [
          "Complete",
          20,
          "B-1",
          "B-1"
        ])
        assert.deepStrictEqual((yield* t.P.get("/movement-tasks")).body, [])
        assert.deepStrictEqual((yield* t.P.get("/movement-tasks?status_id=20")).body, [done])
        const closed = `Movement task ${task.id} is Complete`
        expectError(yield* t.P.post(`/movement-tasks/${task.id}/confirm`, {}), 409, closed)
        expectError(yield* t.P.del(`/movement-tasks/${task.id}`), 409, closed)

        // A second move to B-1 lands on the same content: same SKU, client, tag and expiry.
        const again = yield* t.P.post("/movement-tasks", { content_id: source.content_id, qty: 6, to_loc_id: "B-1" })
        expect204(yield* t.P.post(`/movement-tasks/${again.body.id}/confirm`, null))
        assert.deepStrictEqual((yield* content(t.P, moved.content_id)).qty, 10)
        assert.deepStrictEqual((yield* content(t.P, source.content_id)).qty, 0)
      }))

    it.effect("a confirm of less releases the rest; one elsewhere goes there, if it takes stock and has room", () =>
      Effect.gen(function*() {
        const { source, t } = yield* withStock
        expectStatus(yield* t.P.post("/locations", { loc_id: "B-1", loc_type: "Storage", status: "Blocked In" }), 201)
        expectStatus(yield* t.P.post("/locations", { loc_id: "B-2", loc_type: "Storage", max_tags: 0 }), 201)
        const task = (yield* t.P.post("/movement-tasks", { content_id: source.content_id, qty: 8, to_loc_id: "C-1" }))
          .body
        const confirm = (body: unknown) => t.P.post(`/movement-tasks/${task.id}/confirm`, body)
        expectError(yield* confirm({ qty: 9 }), 400, "Invalid field qty: must be at most the task's quantity, 8")
        expectError(yield* confirm({ qty: 0 }), 400, "Invalid field qty: must be an integer of at least 1")
        expectError(yield* confirm({ to_loc_id: "B-1" }), 409, "Location B-1 is Blocked In")
        expectError(yield* confirm({ qty: 3, to_loc_id: "B-2" }), 409, "Location B-2 has no room for 3 of BOLT")
        assert.deepStrictEqual((yield* content(t.P, source.content_id)).qty_tasked_from, 8)

        expect204(yield* confirm({ qty: 3, to_loc_id: "D-1" }))
        const done = (yield* t.P.get(`/movement-tasks/${task.id}`)).body
        assert.deepStrictEqual([done.quantity, done.to_loc_id, done.final_loc_id, done.status], [
          8,
          "D-1",
          "D-1",
          "Complete"
        ])
        const left = yield* content(t.P, source.content_id)
        assert.deepStrictEqual([left.qty, left.qty_tasked_from], [7, 0])
        const moved = yield* contentAt(t.P, "D-1")
        assert.strictEqual(moved.qty, 3)
        const [reserve, move, release] = yield* movements(t.P)
        assert.deepStrictEqual([reserve, move], [
          ["Task", source.content_id, null, "A-1", "C-1", 8, `Movement task ${task.id}`],
          ["Move", moved.content_id, source.content_id, "A-1", "D-1", 3, `Movement task ${task.id}`]
        ])
        // The rest is released on the source.
        assert.deepStrictEqual([release![0], release![1], release![2], release![5]], [
          "Untask",
          source.content_id,
          null,
          5
        ])
      }))

    it.effect("a cancel releases the task's stock; a closed task answers 409, an unknown one 404", () =>
      Effect.gen(function*() {
        const { source, t } = yield* withStock
        const task = (yield* t.P.post("/movement-tasks", { content_id: source.content_id, qty: 10, to_loc_id: "B-1" }))
          .body
        expect204(yield* t.P.del(`/movement-tasks/${task.id}`))
        const cancelled = (yield* t.P.get(`/movement-tasks/${task.id}`)).body
        assert.deepStrictEqual([cancelled.status, cancelled.status_id], ["Cancelled", 21])
        assert.deepStrictEqual((yield* t.P.get("/movement-tasks?status_id=21")).body, [cancelled])
        const left = yield* content(t.P, source.content_id)
        assert.deepStrictEqual([left.qty, left.qty_tasked_from], [10, 0])
        assert.deepStrictEqual((yield* movements(t.P)).map((m) => [m[0], m[1], m[5]]), [
          ["Task", source.content_id, 10],
          ["Untask", source.content_id, 10]
        ])
        const closed = `Movement task ${task.id} is Cancelled`
        expectError(yield* t.P.del(`/movement-tasks/${task.id}`), 409, closed)
        expectError(yield* t.P.post(`/movement-tasks/${task.id}/confirm`, {}), 409, closed)

        const unknown = "Movement task with id 99999 not found"
        expectError(yield* t.P.get("/movement-tasks/99999"), 404, unknown)
        expectError(yield* t.P.post("/movement-tasks/99999/confirm", {}), 404, unknown)
        expectError(yield* t.P.del("/movement-tasks/99999"), 404, unknown)
        // Another site's task is unknown here.
        expectError(yield* t.F.get(`/movement-tasks/${task.id}`), 404, `Movement task with id ${task.id} not found`)
        expectError(
          yield* t.P.get("/movement-tasks?status_id=2"),
          400,
          "Invalid field status_id: must be 1 (Open), 20 (Complete) or 21 (Cancelled)"
        )
        expectError(
          yield* t.P.get("/movement-tasks?task_type=Pick"),
          400,
          "Invalid field task_type: must be one of Putaway, Move, Replenish"
        )
      }))

    it.effect("a Move task's source and destination: each refusal is its documented 4xx, and writes nothing", () =>
      Effect.gen(function*() {
        const { source, t } = yield* withStock
        expectStatus(yield* t.P.post("/locations", { loc_id: "OUT", loc_type: "Storage", status: "Blocked Out" }), 201)
        expectStatus(yield* t.P.post("/locations", { loc_id: "IN", loc_type: "Storage", status: "Blocked In" }), 201)
        expectStatus(yield* t.P.post("/locations", { loc_id: "SHUT", loc_type: "Storage", status: "Blocked" }), 201)
        expect204(yield* t.P.post("/inventory/adjustments", { sku_id: "BOLT", loc_id: "OUT", qty: 2 }))
        const blockedOut = yield* contentAt(t.P, "OUT")
        const id = source.content_id
        const cases: ReadonlyArray<[unknown, number, string]> = [
          [{ qty: 1, to_loc_id: "B-1" }, 400, "Missing field content_id"],
          [{ sku_id: "BOLT", qty: 1, to_loc_id: "B-1" }, 400, "Missing field from_loc_id"],
          [{ content_id: id, to_loc_id: "B-1" }, 400, "Missing field qty"],
          [{ content_id: id, qty: 1 }, 400, "Missing field to_loc_id"],
          [{ content_id: id, qty: 0, to_loc_id: "B-1" }, 400, "Invalid field qty: must be an integer of at least 1"],
          [{ content_id: id, qty: 1, to_loc_id: "A-1" }, 400, "Invalid field to_loc_id: is where the stock already is"],
          [
            { sku_id: "BOLT", from_loc_id: "Z-9", qty: 1, to_loc_id: "B-1" },
            400,
            "Invalid field from_loc_id: no stock of SKU BOLT at Z-9"
          ],
          [{ content_id: 99999, qty: 1, to_loc_id: "B-1" }, 404, "Inventory content with contentId 99999 not found"],
          [{ content_id: id, qty: 11, to_loc_id: "B-1" }, 409, `Content ${id} has 10 available, 11 asked`],
          [
            { sku_id: "BOLT", from_loc_id: "A-1", qty: 11, to_loc_id: "B-1" },
            409,
            `Content ${id} has 10 available, 11 asked`
          ],
          [{ content_id: id, qty: 1, to_loc_id: "IN" }, 409, "Location IN is Blocked In"],
          [{ content_id: id, qty: 1, to_loc_id: "SHUT" }, 409, "Location SHUT is Blocked"],
          [{ content_id: blockedOut.content_id, qty: 1, to_loc_id: "B-1" }, 409, "Location OUT is Blocked Out"]
        ]
        for (const [body, status, message] of cases) {
          const response = yield* t.P.post("/movement-tasks", body)
          assert.deepStrictEqual([response.status, response.body], [status, { message }], JSON.stringify(body))
        }
        assert.deepStrictEqual((yield* t.P.get("/movement-tasks")).body, [])
        assert.deepStrictEqual(yield* movements(t.P), [])
        assert.deepStrictEqual((yield* content(t.P, id)).qty_tasked_from, 0)

        // Reserved stock is not available to a second task.
        expectStatus(yield* t.P.post("/movement-tasks", { content_id: id, qty: 7, to_loc_id: "B-1" }), 201)
        expectError(
          yield* t.P.post("/movement-tasks", { content_id: id, qty: 4, to_loc_id: "B-2" }),
          409,
          `Content ${id} has 3 available, 4 asked`
        )
      }))

    it.effect("by SKU and location, a Move task takes the first content in FEFO order that covers its quantity", () =>
      Effect.gen(function*() {
        const t = yield* makeTenants
        expect204(yield* t.P.post("/skus", { sku_id: "MILK", description: "Milk", expiry_sku: true, expiry_days: 7 }))
        const put = (tag: string, qty: number, expiry: string) =>
          t.P.post("/inventory/adjustments", { sku_id: "MILK", loc_id: "A-1", tag_id: tag, expiry_date: expiry, qty })
        expect204(yield* put("LATE", 9, "2031-03-01"))
        expect204(yield* put("EARLY", 2, "2031-01-01"))
        expect204(yield* put("MID", 5, "2031-02-01"))
        const by = (body: Record<string, unknown>) =>
          t.P.post("/movement-tasks", { sku_id: "MILK", from_loc_id: "A-1", to_loc_id: "B-1", ...body })
        assert.strictEqual((yield* by({ qty: 2 })).body.tag_id, "EARLY")
        assert.strictEqual((yield* by({ qty: 4 })).body.tag_id, "MID")
        assert.strictEqual((yield* by({ qty: 1, tag_id: "LATE" })).body.tag_id, "LATE")
        const late = yield* contentAt(t.P, "A-1", "LATE")
        expectError(yield* by({ qty: 9 }), 409, `Content ${late.content_id} has 8 available, 9 asked`)
        expectError(
          yield* by({ qty: 1, tag_id: "NONE" }),
          400,
          "Invalid field from_loc_id: no stock of SKU MILK at A-1"
        )
      }))

    it.effect("move-all makes a task per content with stock available, all or nothing", () =>
      Effect.gen(function*() {
        const t = yield* makeTenants
        expect204(yield* t.P.post("/skus", { sku_id: "BOLT", description: "Bolt" }))
        expect204(yield* t.P.post("/skus", { sku_id: "NUT", description: "Nut" }))
        for (const [sku, tag, qty] of [["BOLT", "P1", 5], ["NUT", "P2", 3], ["NUT", "P3", 4]] as const) {
          expect204(yield* t.P.post("/inventory/adjustments", { sku_id: sku, loc_id: "A-1", tag_id: tag, qty }))
        }
        const [bolt, nut, nut2] = yield* contents(t.P)
        // One content is partly reserved, one entirely: only what is available moves.
        expectStatus(yield* t.P.post("/movement-tasks", { content_id: bolt.content_id, qty: 2, to_loc_id: "X" }), 201)
        expectStatus(yield* t.P.post("/movement-tasks", { content_id: nut2.content_id, qty: 4, to_loc_id: "X" }), 201)

        expectStatus(yield* t.P.post("/locations", { loc_id: "B-1", loc_type: "Storage", max_tags: 1 }), 201)
        const refused = yield* t.P.post("/locations/A-1/move-all", { to_loc_id: "B-1" })
        expectError(refused, 409, "Location B-1 has no room for 3 of NUT")
        expectError(
          yield* t.P.post("/locations/A-1/move-all", { to_loc_id: "A-1" }),
          400,
          "Invalid field to_loc_id: is where the stock already is"
        )
        expectError(yield* t.P.post("/locations/A-1/move-all", {}), 400, "Missing field to_loc_id")
        assert.strictEqual((yield* t.P.get("/movement-tasks")).body.length, 2)

        const moved = yield* t.P.post("/locations/A-1/move-all", { to_loc_id: "B-2", reason: "Empty A-1" })
        expectStatus(moved, 201)
        assert.isUndefined(moved.headers["location"])
        assert.deepStrictEqual(
          moved.body.map((task: Record<string, unknown>) => [
            task.task_type,
            task.content_id,
            task.quantity,
            task.to_loc_id,
            task.reason
          ]),
          [["Move", bolt.content_id, 3, "B-2", "Empty A-1"], ["Move", nut.content_id, 3, "B-2", "Empty A-1"]]
        )
        assert.deepStrictEqual((yield* t.P.get("/movement-tasks?to_loc_id=B-2")).body, moved.body)
        assert.deepStrictEqual(
          (yield* t.P.get("/movement-tasks?to_loc_id=B-2&sku_id=NUT")).body.map((task: { id: number }) => task.id),
          [moved.body[1].id]
        )
        // Nothing left to move: an empty list.
        const nothing = yield* t.P.post("/locations/A-1/move-all", { to_loc_id: "B-2" })
        assert.deepStrictEqual([nothing.status, nothing.body], [201, []])
        const empty = yield* t.P.post("/locations/NOWHERE/move-all", { to_loc_id: "B-2" })
        assert.deepStrictEqual([empty.status, empty.body], [201, []])

        // A source that lets no stock out refuses every task.
        expect204(yield* t.P.post("/inventory/adjustments", { sku_id: "BOLT", loc_id: "C-1", qty: 1 }))
        expectStatus(yield* t.P.post("/locations", { loc_id: "C-1", loc_type: "Storage", status: "Blocked" }), 201)
        expectError(yield* t.P.post("/locations/C-1/move-all", { to_loc_id: "B-2" }), 409, "Location C-1 is Blocked")
      }))

    it.effect("a create retried with its Idempotency-Key answers the same 201 and Location, and makes one task", () =>
      Effect.gen(function*() {
        const api = yield* Api
        const { source, t } = yield* withStock
        const send = () =>
          api.request("POST", "/movement-tasks", {
            token: t.admin,
            site: t.p,
            headers: { "idempotency-key": "move-once" },
            body: { content_id: source.content_id, qty: 3, to_loc_id: "B-1" }
          })
        const first = yield* send()
        const again = yield* send()
        expectStatus(first, 201)
        assert.deepStrictEqual([again.status, again.body, again.headers["location"]], [
          201,
          first.body,
          first.headers["location"]
        ])
        assert.strictEqual(again.headers["idempotent-replayed"], "true")
        assert.deepStrictEqual((yield* t.P.get("/movement-tasks")).body, [first.body])
        assert.strictEqual((yield* content(t.P, source.content_id)).qty_tasked_from, 3)
      }))

    it.effect("a client scope sees and moves its own stock only", () =>
      Effect.gen(function*() {
        const t = yield* makeTenants
        expect204(yield* t.F1.post("/skus", { sku_id: "BOLT", description: "Bolt" }))
        expect204(yield* t.F1.post("/inventory/adjustments", { sku_id: "BOLT", loc_id: "A-1", qty: 5 }))
        const own = yield* contentAt(t.F1, "A-1")
        expectError(
          yield* t.F2.post("/movement-tasks", { content_id: own.content_id, qty: 1, to_loc_id: "B-1" }),
          404,
          `Inventory content with contentId ${own.content_id} not found`
        )
        const task = (yield* t.F1.post("/movement-tasks", { content_id: own.content_id, qty: 2, to_loc_id: "B-1" }))
          .body
        assert.strictEqual(task.client_id, t.f1)
        assert.deepStrictEqual((yield* t.F2.get("/movement-tasks")).body, [])
        expectError(yield* t.F2.del(`/movement-tasks/${task.id}`), 404, `Movement task with id ${task.id} not found`)
        assert.deepStrictEqual((yield* t.F.get("/movement-tasks")).body, [task])
        expect204(yield* t.F.post(`/movement-tasks/${task.id}/confirm`, {}))
        assert.strictEqual((yield* contentAt(t.F1, "B-1")).qty, 2)
      }))
  })
}
