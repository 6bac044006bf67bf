/**
 * Dialect-neutral repositories of the warehouse engine on @effect/sql. A store package provides
 * the `SqlClient` and `Prepared` statements on it, runs `migrations` with its dialect's migrator
 * and supplies the `Transactor`, made with `SqlTransactor`.
 */
// First: @wms/core checks the versions of Node.js and effect before the other modules run.
import "@wms/core"
import { Layer } from "effect"
import * as SqlCarrierRepository from "./SqlCarrierRepository.js"
import * as SqlCountRepository from "./SqlCountRepository.js"
import * as SqlEventPublisher from "./SqlEventPublisher.js"
import * as SqlHoldRepository from "./SqlHoldRepository.js"
import * as SqlIdempotencyRepository from "./SqlIdempotencyRepository.js"
import * as SqlInventoryRepository from "./SqlInventoryRepository.js"
import * as SqlLocationRepository from "./SqlLocationRepository.js"
import * as SqlMovementTaskRepository from "./SqlMovementTaskRepository.js"
import * as SqlOrderRepository from "./SqlOrderRepository.js"
import * as SqlPartnerRepository from "./SqlPartnerRepository.js"
import * as SqlPickFaceRepository from "./SqlPickFaceRepository.js"
import * as SqlPickingRepository from "./SqlPickingRepository.js"
import * as SqlPreAdviceRepository from "./SqlPreAdviceRepository.js"
import * as SqlReceivingRepository from "./SqlReceivingRepository.js"
import * as SqlReturnRepository from "./SqlReturnRepository.js"
import * as SqlSettingRepository from "./SqlSettingRepository.js"
import * as SqlShippingUnitRepository from "./SqlShippingUnitRepository.js"
import * as SqlSiteRepository from "./SqlSiteRepository.js"
import * as SqlSiteSettingsRepository from "./SqlSiteSettingsRepository.js"
import * as SqlSkuGroupRepository from "./SqlSkuGroupRepository.js"
import * as SqlSkuRepository from "./SqlSkuRepository.js"
import * as SqlTransferRepository from "./SqlTransferRepository.js"
import * as SqlUserRepository from "./SqlUserRepository.js"
import * as SqlWaveDefinitionRepository from "./SqlWaveDefinitionRepository.js"
import * as SqlWaveRepository from "./SqlWaveRepository.js"
import * as SqlWebhookRepository from "./SqlWebhookRepository.js"

export { migrations } from "./Migrations.js"
export * as Prepared from "./Prepared.js"
export * as SqlTransactor from "./SqlTransactor.js"

/** Every repository port of the core, on the `SqlClient` and `Prepared` in context. */
export const repositories = Layer.mergeAll(
  SqlSiteRepository.layer,
  SqlInventoryRepository.layer,
  SqlReceivingRepository.layer,
  SqlUserRepository.layer,
  SqlSettingRepository.layer,
  SqlOrderRepository.layer,
  SqlPreAdviceRepository.layer,
  SqlPartnerRepository.layer,
  SqlCarrierRepository.layer,
  SqlSkuGroupRepository.layer,
  SqlSkuRepository.layer,
  SqlWaveDefinitionRepository.layer,
  SqlWaveRepository.layer,
  SqlPickingRepository.layer,
  SqlEventPublisher.layer,
  SqlWebhookRepository.layer,
  SqlIdempotencyRepository.layer,
  SqlLocationRepository.layer,
  SqlMovementTaskRepository.layer,
  SqlSiteSettingsRepository.layer,
  SqlCountRepository.layer,
  SqlPickFaceRepository.layer,
  SqlShippingUnitRepository.layer,
  SqlHoldRepository.layer,
  SqlTransferRepository.layer,
  SqlReturnRepository.layer
)
