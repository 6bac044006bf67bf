/**
 * What every server of the spike answers, the same bytes from each: a constant, an order by id
 * (the shape of `GET /orders/:id`, read from memory so that no database driver is measured), and
 * a new order (a JSON body checked field by field, answered 204). The spike measures what the HTTP
 * framework costs on its own, not the engine.
 */
export const constant = { status: "ok" }

const lines = [1, 2, 3].map((line) => ({ line, sku_id: `SKU-${line}`, qty: line * 2, qty_picked: 0, qty_shipped: 0 }))

export const orders = new Map(
  Array.from({ length: 100 }, (_, i) => {
    const order_id = `SO-${i + 1}`
    return [order_id, {
      order_id,
      order_status: { id: 14, description: "Released" },
      customer: { id: 1, name: "Jansen, Utrecht" },
      order_date: "2026-11-25",
      ship_by_date: null,
      carrier: null,
      ship_dock: "DOCK",
      client_id: null,
      created_by: "bench",
      created_datetime: "2026-11-25 10:00:00",
      lines
    }]
  })
)

export const newOrder = JSON.stringify({ order_id: "SO-NEW", lines: [{ sku_id: "SKU-1", qty: 2 }, { sku_id: "SKU-2", qty: 1 }] })
