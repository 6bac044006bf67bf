/**
 * What every JSON value a client sends must pass, in a body or an imported row: a nesting depth no
 * API body needs (a deeper one overflows the stack when the schema's error is formatted), no
 * U+0000 in any text (PostgreSQL cannot keep it, not even as a query parameter), and no lone
 * surrogate (`"\ud800"` is valid JSON but no character: a store keeps it as U+FFFD, and a
 * `Location` naming it cannot be encoded).
 */
import { hasLoneSurrogate, loneSurrogateMessage } from "@wms/core"

const validUnicode = "valid Unicode text"

/** The deepest nesting of arrays and objects a body may have; the API's own bodies need 3. */
export const maxBodyDepth = 32

/** Why a parsed body is refused, or `undefined` when it passes. */
export const bodyProblem = (body: unknown): string | undefined => {
  const visit = (value: unknown, path: ReadonlyArray<string | number>): string | undefined => {
    if (typeof value === "string") {
      if (value.includes("\u0000")) return invalid(path, "must not contain NUL characters")
      return hasLoneSurrogate(value) ? invalid(path, loneSurrogateMessage) : undefined
    }
    if (typeof value !== "object" || value === null) return undefined
    if (path.length >= maxBodyDepth) return `Request body is nested more than ${maxBodyDepth} levels deep`
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const problem = visit(value[i], [...path, i])
        if (problem !== undefined) return problem
      }
      return undefined
    }
    for (const [key, field] of Object.entries(value)) {
      if (key.includes("\u0000")) return invalid(path, "must not contain a key with NUL characters")
      if (hasLoneSurrogate(key)) return invalid(path, `must not contain a key that is not ${validUnicode}`)
      const problem = visit(field, [...path, key])
      if (problem !== undefined) return problem
    }
    return undefined
  }
  return visit(body, [])
}

const invalid = (path: ReadonlyArray<string | number>, message: string) =>
  path.length === 0 ? `Request body ${message}` : `Invalid field ${path.join(".")}: ${message}`
