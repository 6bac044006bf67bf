/**
 * One HTTP request sent as it is written, on node:http: headers as given, a declared length or a
 * body in 64 KiB pieces without one; for tests that compare two servers' answers byte for byte.
 */
import { Effect } from "effect"
import { request as httpRequest } from "node:http"

export interface Answer {
  readonly status: number
  readonly headers: Record<string, string | Array<string> | undefined>
  readonly text: string
}

export interface Sent {
  readonly method: "GET" | "POST" | "PUT" | "DELETE"
  readonly path: string
  readonly headers: Record<string, string>
  readonly body?: string | Buffer
  /** Sent in pieces, without a declared length. */
  readonly chunked?: boolean
}

/** Sends `sent` to `host:port`; fails when no answer comes within 10 s. */
export const send = (host: string, port: number | string, sent: Sent) =>
  Effect.async<Answer, Error>((resume) => {
    const headers = { ...sent.headers }
    if (sent.body !== undefined && sent.chunked !== true) {
      headers["content-length"] = String(Buffer.byteLength(sent.body))
    }
    const req = httpRequest({ host, port, method: sent.method, path: sent.path, headers }, (res) => {
      let text = ""
      res.setEncoding("utf8")
      res.on("data", (chunk) => (text += chunk))
      res.on("end", () => resume(Effect.succeed({ status: res.statusCode ?? 0, headers: res.headers, text })))
    })
    req.on("error", (error) => resume(Effect.fail(error)))
    if (sent.body !== undefined && sent.chunked === true) {
      const body = Buffer.from(sent.body)
      for (let offset = 0; offset < body.length; offset += 64 * 1024) {
        req.write(body.subarray(offset, offset + 64 * 1024))
      }
    } else if (sent.body !== undefined) req.write(sent.body)
    req.end()
    return Effect.sync(() => req.destroy())
  }).pipe(
    Effect.timeoutFail({ duration: "10 seconds", onTimeout: () => new Error(`${sent.method} ${sent.path}: no answer`) })
  )
