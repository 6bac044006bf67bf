/**
 * Where a create's new record is read: an endpoint annotation naming the record's `GET` path from
 * the endpoint's decoded input and what its table entry returned (a generated id, or the record
 * itself where the create answers with it). `toHttpApi` sends it as the `Location` of the answer
 * (a 204, or a 201 with the record), and the hot routes' front as that of its 204s, so a client
 * finds the record it made without listing, which would race with another writer.
 */
import { OpenApi } from "@effect/platform"
import { Context } from "effect"

/** The new record's path from the decoded input (`payload`) and the entry's result. */
export type Location = (input: { readonly payload: never }, created: unknown) => string

export class CreatedAt extends Context.Tag("@wms/http/CreatedAt")<CreatedAt, Location>() {}

/** The success's `Location` header in the OpenAPI document: on the 204, or the 201 with the record. */
const documentLocation = (operation: Record<string, any>): Record<string, any> => ({
  ...operation,
  responses: Object.fromEntries(
    Object.entries<Record<string, any>>(operation.responses).map(([status, response]) => [
      status,
      Number(status) >= 300 ? response : {
        ...response,
        headers: {
          Location: {
            description: "The new record's path, which `GET` reads.",
            schema: { type: "string" }
          }
        }
      }
    ])
  )
})

/** A create's annotations: where its record is read (`CreatedAt`), and the header documented. */
const located = (location: Location) =>
  Context.make(CreatedAt, location).pipe(Context.add(OpenApi.Transform, documentLocation))

/** A create whose record's id is generated, the entry's result, read under `collection`. */
export const generated = (collection: string) => located((_, id) => `${collection}/${encodeURIComponent(String(id))}`)

/** A create whose record's id the payload gives, in `field`, read under `collection`. */
export const given = (collection: string, field: string) =>
  located(({ payload }) => `${collection}/${encodeURIComponent(String((payload as Record<string, unknown>)[field]))}`)

/** A create that answers with the new record, whose id is its `field`, read under `collection`. */
export const returned = (collection: string, field: string) =>
  located((_, record) => `${collection}/${encodeURIComponent(String((record as Record<string, unknown>)[field]))}`)

/** A create that answers with a record carrying the new one, whose id `idOf` finds, read under `collection`. */
export const returnedWithin = (collection: string, idOf: (record: never) => unknown) =>
  located((_, record) => `${collection}/${encodeURIComponent(String(idOf(record as never)))}`)
