/**
 * The warehouse REST API: its declaration, the handlers as a mountable layer, the bundled Node
 * server, and the engine entry point for embedding.
 */
// First: @wms/core checks the versions of Node.js and effect before the other modules run.
import "@wms/core"
export { WarehouseApi } from "./Api.js"
export * from "./api/Errors.js"
export { Authorization, CurrentActor, CurrentPrincipal, TokenAuthentication } from "./api/Security.js"
export * as LoginThrottle from "./auth/LoginThrottle.js"
export * as NodePasswordHasher from "./auth/NodePasswordHasher.js"
export * as Tokens from "./auth/Tokens.js"
export {
  type ActAs,
  createWarehouse,
  type CreateWarehouseOptions,
  type WarehouseClient,
  type WarehouseScope,
  type WarehouseServices
} from "./derived/Facade.js"
export * as HttpApiLive from "./derived/HttpApiLive.js"
export * as Readiness from "./features/system/Readiness.js"
export * as Config from "./server/Config.js"
export * as Server from "./server/Server.js"
export * as Store from "./Store.js"
export * as Warehouse from "./Warehouse.js"
export * as WebhookWorker from "./workers/WebhookWorker.js"
