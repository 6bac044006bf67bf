/**
 * The arguments the facade's methods share, each making an endpoint's input (`Table.ts`, `Methods`):
 * ids and windows as typed values, bodies as the REST API takes them, JSON.
 */
import type { ListWindow } from "@wms/core"
import type { Schema } from "effect"

/** A body as the REST API takes it (JSON), before its schema. */
export type Body<S extends Schema.Schema.Any> = Schema.Schema.Encoded<S>

export const everything = () => ({ urlParams: {} })
export const windowed = (window: ListWindow = {}) => ({ urlParams: window })
export const byNumber = (id: number) => ({ path: { id } })
export const byText = (id: string) => ({ path: { id } })
export const byLine = (id: string, line: number) => ({ path: { id, line_id: line } })
