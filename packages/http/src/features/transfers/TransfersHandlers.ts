import { Transfers } from "@wms/core"
import type { CloseTransferRequest } from "@wms/core"
import { Effect } from "effect"
import { type Body, byText, windowed } from "../Arguments.js"
import type { Methods, Table } from "../Table.js"
import type { TransfersApi } from "./TransfersApi.js"

export const TransfersTable = Effect.map(Transfers, (transfers) => ({
  listInTransit: (actor, { urlParams }) => transfers.listInTransit(actor, urlParams),
  closeTransfer: (actor, { path, payload }) => transfers.closeTransfer(actor, path.id, payload)
} satisfies Table<typeof TransfersApi>))

/** The facade's methods of `transfers`: how each one's arguments make its endpoint's input. */
export const TransfersMethods = {
  /** The lines in transit to or from the scope's site, in a window. */
  listInTransit: windowed,
  /** Short-closes a transfer's pre-advice with a reason. */
  closeTransfer: (id: string, payload: Body<typeof CloseTransferRequest>) => ({ ...byText(id), payload })
} satisfies Methods<typeof TransfersApi>

export const TransfersHandlers = { table: TransfersTable, methods: TransfersMethods }
