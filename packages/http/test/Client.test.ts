import { FetchHttpClient, HttpServer } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { assert, describe, layer } from "@effect/vitest"
import {
  AdjustmentRequest,
  defaultSiteSettings,
  NewCountRequest,
  NewLocation,
  NewMoveRequest,
  NewOrder,
  NewSku,
  SiteId
} from "@wms/core"
import { Effect, Layer } from "effect"
import { createServer } from "node:http"
import { adminEmail, adminPassword, testConfig } from "../../../testing/server.js"
import { login, makeClient } from "../src/Client.js"
import * as Server from "../src/server/Server.js"

// The bundled server on a loopback port: the typed client reads what goes over the wire.
const server = Server.app(testConfig("sqlite::memory:")).pipe(
  Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" }))
)

const baseUrl = Effect.map(HttpServer.HttpServer, (server) => {
  if (server.address._tag !== "TcpAddress") throw new Error("the test server listens on TCP")
  return `http://127.0.0.1:${server.address.port}`
})

/** The error `effect` fails with, as its tag, its own fields and its message. */
const failure = <A, E extends { readonly _tag: string; readonly message: string }, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.map(Effect.flip(effect), (error) => {
    const { _tag, ...data } = { ...error } as Record<string, unknown>
    return [error._tag, data, error.message] as const
  })

describe("the typed client", () => {
  layer(server, { excludeTestServices: true })((it) => {
    it.effect("gets back each feature's errors with their data, read from the answer's text", () =>
      Effect.gen(function*() {
        const url = yield* baseUrl
        const wms = yield* login({ baseUrl: url, email: adminEmail, password: adminPassword, site: "main" })
        const missing = { path: { id: 999 } }
        const main = SiteId.make("main")

        assert.deepStrictEqual(
          yield* failure(wms.admin.createSite({ payload: { site_id: main, name: "Main", fulfillment: false } })),
          ["SiteExists", { siteId: "main" }, "Site main already exists"]
        )
        assert.deepStrictEqual(
          yield* failure(wms.admin.deleteUser({ path: { userId: "nobody" } })),
          ["UserNotFound", { userId: "nobody" }, "User nobody not found"]
        )
        assert.deepStrictEqual(
          yield* failure(wms.customers.getCustomer(missing)),
          ["CustomerNotFound", { customerId: 999 }, "Customer with id 999 not found"]
        )
        assert.deepStrictEqual(
          yield* failure(wms.suppliers.deleteSupplier(missing)),
          ["SupplierNotFound", { supplierId: 999 }, "Supplier with id 999 not found"]
        )
        assert.deepStrictEqual(
          yield* failure(wms.carriers.getCarrier(missing)),
          ["CarrierNotFound", { carrierId: 999 }, "Carrier with id 999 not found"]
        )
        // Transfers: a site that does not exist, and a pre-advice that is none to close.
        assert.deepStrictEqual(
          yield* failure(wms.orders.createOrder({ payload: NewOrder.make({ order_id: "T-0", to_site: "nowhere" }) })),
          ["SiteNotFound", { siteId: "nowhere" }, "Site with id nowhere not found"]
        )
        assert.deepStrictEqual(
          yield* failure(wms.transfers.closeTransfer({ path: { id: "NOPE" }, payload: { reason_code: "Other" } })),
          ["PreAdviceNotFound", { preAdviceId: "NOPE" }, "PreAdvice with PreAdviceID NOPE not found"]
        )
        assert.deepStrictEqual(yield* wms.transfers.listInTransit({ urlParams: {} }), [])
        assert.deepStrictEqual(
          yield* failure(wms.skus.getSku({ path: { id: "NOPE" } })),
          ["SkuNotFound", { skuId: "NOPE" }, "SKU with id NOPE not found"]
        )
        assert.deepStrictEqual(
          yield* failure(wms.skugroups.deleteSkuGroup({ path: { id: "NOPE" } })),
          ["SkuGroupNotFound", { skuGroupId: "NOPE" }, "SKU group with id NOPE not found"]
        )

        yield* wms.orders.createOrder({ payload: NewOrder.make({ order_id: "SO-1" }) })
        assert.deepStrictEqual(
          yield* failure(wms.orders.createOrder({ payload: NewOrder.make({ order_id: "SO-1" }) })),
          ["OrderExists", { orderId: "SO-1" }, "Order with OrderID SO-1 already exists"]
        )
        // Two 404s of one endpoint, told apart by their text.
        assert.deepStrictEqual(
          yield* failure(wms.orders.getOrderLine({ path: { id: "SO-1", line_id: 4 } })),
          ["OrderLineNotFound", { orderId: "SO-1", line: 4 }, "Line 4 of order SO-1 not found"]
        )
        assert.deepStrictEqual(
          yield* failure(wms.orders.getOrderLine({ path: { id: "SO-9", line_id: 4 } })),
          ["OrderNotFound", { orderId: "SO-9" }, "Order with OrderID SO-9 not found"]
        )
        assert.deepStrictEqual(
          yield* failure(wms.picking.ship({ path: { id: "SO-1" } })),
          ["OrderNothingPicked", { orderId: "SO-1" }, "Order with OrderID SO-1 has nothing picked"]
        )
        const rma = { order_id: "SO-1", reason_code: "Damaged", lines: [{ order_line: 1, qty: 1 }] }
        assert.deepStrictEqual(
          yield* failure(wms.returns.createReturn({ payload: rma })),
          ["OrderLineNotFound", { orderId: "SO-1", line: 1 }, "Line 1 of order SO-1 not found"]
        )
        assert.deepStrictEqual(
          yield* failure(wms.returns.deleteReturn({ path: { id: "R9" } })),
          ["ReturnNotFound", { returnId: "R9" }, "Return R9 not found"]
        )
        assert.deepStrictEqual(
          yield* failure(
            wms.picking.confirm({ path: { id: 999 }, payload: { qty: null, reallocate: null, reason_code: null } })
          ),
          ["TaskNotFound", { taskId: 999 }, "Task with id 999 not found"]
        )
        assert.deepStrictEqual(
          yield* failure(wms.preadvices.getPreAdvice({ path: { id: "PA-9" } })),
          ["PreAdviceNotFound", { preAdviceId: "PA-9" }, "PreAdvice with PreAdviceID PA-9 not found"]
        )
        assert.deepStrictEqual(
          yield* failure(wms.receiving.receive({ path: { id: "PA-9" }, payload: { lines: null, putaway: null } })),
          ["PreAdviceNotFound", { preAdviceId: "PA-9" }, "PreAdvice with PreAdviceID PA-9 not found"]
        )
        assert.deepStrictEqual(
          yield* failure(wms.inventory.content(missing)),
          ["ContentNotFound", { contentId: 999 }, "Inventory content with contentId 999 not found"]
        )
        assert.deepStrictEqual(
          yield* failure(wms.waveDefinitions.getWaveDefinition(missing)),
          ["WaveDefinitionNotFound", { waveDefinitionId: 999 }, "Wave definitie met id 999 niet gevonden"]
        )
        assert.deepStrictEqual(
          yield* failure(wms.waves.start({ payload: { wave_id: 999 } })),
          ["WaveNotFound", { waveId: 999 }, "Wave met id 999 niet gevonden"]
        )
        assert.deepStrictEqual(
          yield* failure(wms.webhooks.getWebhook(missing)),
          ["WebhookNotFound", {}, "Webhook niet gevonden"]
        )

        // The warehouse cycle's: a create answers its record, and 409s of one endpoint are told apart by their text.
        const location = yield* wms.locations.createLocation({
          payload: NewLocation.make({ loc_id: "S-1", loc_type: "Storage", max_tags: 0 })
        })
        assert.deepStrictEqual([location.loc_id, location.max_tags, location.qty_on_hand], ["S-1", 0, 0])
        assert.deepStrictEqual(
          yield* failure(wms.locations.getLocation({ path: { id: "NOPE" } })),
          ["LocationNotFound", { locId: "NOPE" }, "Location with id NOPE not found"]
        )
        assert.deepStrictEqual(
          yield* failure(
            wms.locations.createLocation({ payload: NewLocation.make({ loc_id: "S-1", loc_type: "Dock" }) })
          ),
          ["LocationExists", { locId: "S-1" }, "Location S-1 already exists"]
        )
        yield* wms.skus.createSku({ payload: NewSku.make({ sku_id: "BOLT", description: "Bolt" }) })
        yield* wms.inventory.adjust({ payload: AdjustmentRequest.make({ sku_id: "BOLT", loc_id: "A-1", qty: 5 }) })
        const [content] = yield* wms.inventory.overview({ urlParams: {} })
        const move = (qty: number, to: string) =>
          wms.movementTasks.createMovementTask({
            payload: NewMoveRequest.make({ content_id: content!.content_id, qty, to_loc_id: to })
          })
        assert.deepStrictEqual(
          yield* failure(move(9, "B-1")),
          [
            "ContentUnavailable",
            { contentId: content!.content_id, available: 5, qty: 9 },
            `Content ${content!.content_id} has 5 available, 9 asked`
          ]
        )
        assert.deepStrictEqual(
          yield* failure(move(1, "S-1")),
          ["LocationFull", { locId: "S-1", qty: 1, skuId: "BOLT" }, "Location S-1 has no room for 1 of BOLT"]
        )
        const task = yield* move(2, "B-1")
        assert.deepStrictEqual([task.task_type, task.quantity, task.status_id], ["Move", 2, 1])
        yield* wms.movementTasks.cancelMovementTask({ path: { id: task.id } })
        assert.deepStrictEqual(
          yield* failure(wms.movementTasks.confirmMovementTask({ path: { id: task.id }, payload: null })),
          ["MovementTaskClosed", { taskId: task.id, status: "Cancelled" }, `Movement task ${task.id} is Cancelled`]
        )
        assert.deepStrictEqual(
          yield* failure(wms.movementTasks.getMovementTask(missing)),
          ["MovementTaskNotFound", { taskId: 999 }, "Movement task with id 999 not found"]
        )
        assert.deepStrictEqual(
          yield* failure(wms.counts.getCount(missing)),
          ["CountNotFound", { countId: 999 }, "Count with id 999 not found"]
        )
        assert.deepStrictEqual(
          yield* failure(wms.counts.createCount({ payload: NewCountRequest.make({ loc_id: "NOPE" }) })),
          ["LocationNotFound", { locId: "NOPE" }, "Location with id NOPE not found"]
        )
        assert.deepStrictEqual(
          yield* failure(wms.admin.getSiteSettings({ path: { id: "NOPE" } })),
          ["SiteNotFound", { siteId: "NOPE" }, "Site with id NOPE not found"]
        )
        assert.deepStrictEqual(yield* wms.admin.getSiteSettings({ path: { id: "main" } }), defaultSiteSettings)

        // The generic failures keep their classes.
        const anonymous = yield* makeClient({ baseUrl: url, site: "main" })
        assert.deepStrictEqual(
          yield* failure(anonymous.orders.listOrders({ urlParams: {} })),
          ["Unauthenticated", {}, "Missing authorization token"]
        )
      }).pipe(Effect.provide(FetchHttpClient.layer)))
  })
})
