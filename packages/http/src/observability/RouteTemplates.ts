/**
 * The route template of a request path (`/orders/SO-1/lines/2` → `/orders/:id/lines/:line_id`),
 * from the API declaration: a label for access lines and metrics whose values stay few.
 */
import { HttpApi } from "@effect/platform"
import { WarehouseApi } from "../Api.js"

const templates: Array<{ readonly method: string; readonly template: string; readonly pattern: RegExp }> = []
HttpApi.reflect(WarehouseApi, {
  onGroup: () => {},
  onEndpoint: ({ endpoint }) => {
    const pattern = new RegExp(`^${endpoint.path.replace(/:[A-Za-z_]+/g, "[^/]+")}$`)
    templates.push({ method: endpoint.method, template: endpoint.path, pattern })
  }
})

const others = new Set(["/openapi.json", "/docs", "/metrics"])

/** The template of a declared route, the path itself for the server's own pages, else `unmatched`. */
export const routeOf = (method: string, path: string): string => {
  for (const route of templates) {
    if (route.method === method && route.pattern.test(path)) return route.template
  }
  return others.has(path) ? path : "unmatched"
}
