/**
 * The routes whose endpoint reads its request body as a stream (`StreamedBody`), found in the
 * declaration: the body limit and the JSON checks (`BodyLimit`) pass them by.
 */
import { HttpApi } from "@effect/platform"
import { WarehouseApi } from "../Api.js"
import { isStreamed } from "../api/StreamedBody.js"

const routes: Array<{ readonly method: string; readonly pattern: RegExp }> = []
HttpApi.reflect(WarehouseApi, {
  onGroup: () => {},
  onEndpoint: ({ endpoint }) => {
    if (!isStreamed(endpoint.annotations)) return
    routes.push({ method: endpoint.method, pattern: new RegExp(`^${endpoint.path.replace(/:[A-Za-z_]+/g, "[^/]+")}$`) })
  }
})

/** Whether a request of `method` on `url` goes to an endpoint that streams its body. */
export const isStreamedRoute = (method: string, url: string): boolean => {
  const path = url.split("?", 1)[0]
  return routes.some((route) => route.method === method && route.pattern.test(path))
}
