/**
 * Where a create's new record is read: an endpoint annotation naming the record's `GET` path from
 * the endpoint's decoded input and what its table entry returned (a generated id, where there is
 * one). `toHttpApi` and the hot routes' front send it as the `Location` of the 204 answer, so a
 * client finds the record it made without listing, which would race with another writer.
 */
import { OpenApi } from "@effect/platform"
import { Context } from "effect"

/** The new record's path from the decoded input (`payload`) and the entry's result. */
export type Location = (input: { readonly payload: never }, created: unknown) => string

export class CreatedAt extends Context.Tag("@wms/http/CreatedAt")<CreatedAt, Location>() {}

/** The 204 answer's `Location` header in the OpenAPI document. */
const documentLocation = (operation: Record<string, any>): Record<string, any> => ({
  ...operation,
  responses: {
    ...operation.responses,
    204: {
      ...operation.responses[204],
      headers: {
        Location: {
          description: "The new record's path, which `GET` reads.",
          schema: { type: "string" }
        }
      }
    }
  }
})

/** A create's annotations: where its record is read (`CreatedAt`), and the header documented. */
const located = (location: Location) =>
  Context.make(CreatedAt, location).pipe(Context.add(OpenApi.Transform, documentLocation))

/** A create whose record's id is generated, the entry's result, read under `collection`. */
export const generated = (collection: string) => located((_, id) => `${collection}/${encodeURIComponent(String(id))}`)

/** A create whose record's id the payload gives, in `field`, read under `collection`. */
export const given = (collection: string, field: string) =>
  located(({ payload }) => `${collection}/${encodeURIComponent(String((payload as Record<string, unknown>)[field]))}`)
