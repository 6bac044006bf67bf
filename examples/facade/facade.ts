/**
 * Embedding the engine in an application that does not use Effect: the Promise facade. Receives
 * stock, takes an order, runs a wave, picks and ships it, and hears the `order_shipped` event.
 * Run: `node examples/dist/facade/facade.js` after `npm run build`.
 */
import { OrderExists, OrderNotFound } from "@wms/core"
import { createWarehouse } from "@wms/http"
import { pathToFileURL } from "node:url"

/** Runs a whole outbound flow on a fresh warehouse and returns what happened to the order. */
export const main = async (database = "sqlite::memory:") => {
  // Opens and migrates the database; acts on site "main", created because the database is empty.
  const wms = await createWarehouse({ database, timeZone: "Europe/Amsterdam" })
  try {
    await wms.skus.createSku({ sku_id: "APPLE", description: "Apple", expiry_sku: true, expiry_days: 30 })
    await wms.preAdvices.createPreAdvice({ pre_advice_id: "PA-1", lines: [{ sku_id: "APPLE", qty: 10 }] })
    await wms.receiving.receive("PA-1")
    await wms.orders.createOrder({ order_id: "SO-1", lines: [{ sku_id: "APPLE", qty: 4 }] })

    // Failures reject with the engine's own error classes, each with its data.
    const duplicate = await wms.orders.createOrder({ order_id: "SO-1" }).catch((error: unknown) => error)
    console.log(duplicate instanceof OrderExists ? `refused: ${duplicate.message}` : "accepted twice?")

    // Events arrive after commit, from the webhook worker the facade runs.
    let resolveShipped: (orderId: unknown) => void = () => {}
    const shipped = new Promise((resolve) => (resolveShipped = resolve))
    const unsubscribe = await wms.events.subscribe("order_shipped", (event) => {
      resolveShipped((event.data as { order_id: string }).order_id)
    })

    const definition = await wms.waveDefinitions.createWaveDefinition({
      description: "Everything",
      criterium_id: 5,
      pick_type: 1
    })
    const { wave_id } = await wms.waves.create(definition)
    console.log((await wms.waves.start(wave_id)).message)
    for (const task of await wms.picking.tasks({ wave_id })) await wms.picking.confirm(task.id)
    await wms.picking.ship("SO-1")
    console.log(`order_shipped: ${await shipped}`)
    await unsubscribe()

    const order = await wms.orders.getOrder("SO-1")
    console.log(`${order.order_id}: ${order.order_status_description}, shipped ${order.lines[0]?.qty_shipped}`)

    const missing = await wms.orders.getOrder("SO-404").catch((error: unknown) => error)
    console.log(missing instanceof OrderNotFound ? `${missing._tag} ${missing.orderId}: ${missing.message}` : "found?")
    return { order, shipped: await shipped, stock: await wms.inventory.overview() }
  } finally {
    await wms.close()
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error) => {
    console.error(error)
    process.exitCode = 1
  })
}
