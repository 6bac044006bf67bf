/**
 * Embedding the engine in an Effect program: the warehouse services on a store of your choice,
 * no HTTP involved. Run: `node examples/dist/embedded/effect.js` after `npm run build`.
 */
import { NodeRuntime } from "@effect/platform-node"
import { Administration, SiteId } from "@wms/core"
import { Warehouse } from "@wms/http"
import { Console, Effect, Option } from "effect"
import { pathToFileURL } from "node:url"

/** Seeds an installation, logs in as its admin, adds a fulfillment site and lists the sites. */
export const program = Effect.gen(function*() {
  const administration = yield* Administration
  yield* administration.bootstrap({
    siteId: SiteId.make("main"),
    adminEmail: "admin@example.com",
    adminPassword: Option.some("a-long-password")
  })
  const { user } = yield* administration.authenticate("admin@example.com", "a-long-password")
  // The actor is who acts and in which scope: here the admin, on site "main".
  const actor = yield* administration.actorFor(
    { userId: user.userId, admin: user.admin, site: user.site, client: user.client },
    "main"
  )
  yield* administration.createSite(actor, { site_id: SiteId.make("north"), name: "North", fulfillment: true })
  const sites = yield* administration.listSites(actor)
  yield* Console.log(
    sites.map((site) => `${site.site_id}: ${site.name}${site.fulfillment ? " (fulfillment)" : ""}`).join("\n")
  )
  return sites
})

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  program.pipe(Effect.provide(Warehouse.layer({ database: "sqlite::memory:" })), NodeRuntime.runMain)
}
