/**
 * The JSON schemas of an order as `GET /orders/:id` answers it, for fast-json-stringify: shared by
 * the bare Fastify baseline (`fastify.js`) and the fair peer (`fair.js`), which answer the same bytes.
 */
export const nullable = (type) => ({ type: [type, "null"] })

export const orderLine = {
  type: "object",
  properties: {
    order_id: { type: "string" },
    line: { type: "integer" },
    sku_id: { type: "string" },
    qty: { type: "integer" },
    qty_picked: { type: "integer" },
    qty_shipped: { type: "integer" },
    qty_backordered: { type: "integer" }
  }
}

export const order = {
  type: "object",
  properties: {
    order_id: { type: "string" },
    client_id: nullable("string"),
    order_date: nullable("string"),
    order_status: { type: "object", properties: { id: { type: "integer" }, description: { type: "string" } } },
    order_status_description: { type: "string" },
    customer: { type: ["object", "null"], properties: { id: { type: "integer" }, name: { type: "string" } } },
    ship_by_date: nullable("string"),
    carrier: nullable("string"),
    ship_dock: nullable("string"),
    creation_datetime: { type: "string" },
    created_by: { type: "string" },
    order_type: { type: "string" },
    to_site: nullable("string"),
    backorder_of: nullable("string"),
    lines: { type: "array", items: orderLine }
  }
}

/** An order as `GET /orders/:id` answers it: with its shipping units. */
export const orderRecord = {
  type: "object",
  properties: {
    ...order.properties,
    shipping_units: {
      type: "array",
      items: {
        type: "object",
        properties: {
          sscc: { type: "string" },
          unit_type: { type: "string" },
          parent_sscc: nullable("string"),
          weight: { type: "number" },
          tracking_number: nullable("string")
        }
      }
    }
  }
}
