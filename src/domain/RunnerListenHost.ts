import { ConfigError, Effect, Option } from "effect"
import * as dns from "node:dns/promises"
import * as net from "node:net"

const invalid = (message: string) => ConfigError.InvalidData(["RUNNER_LISTEN_HOST"], message)

/** The error code binding `address` fails with (`EADDRNOTAVAIL`: not an address of this machine), or null. */
const bindRefusal = (address: string) =>
  Effect.async<string | null>((resume) => {
    const server = net.createServer()
    server.once("error", (error: NodeJS.ErrnoException) => resume(Effect.succeed(error.code ?? error.message)))
    server.listen(0, address, () => server.close(() => resume(Effect.succeed(null))))
  })

/**
 * The interface the cluster runner binds: RUNNER_LISTEN_HOST, else the address RUNNER_HOST resolves to. Resolved and
 * tried once at start, so a name that does not resolve or an address of another machine stops the node with a
 * message naming the setting instead of a socket error from inside the cluster later.
 */
export const resolveRunnerListenHost = (given: Option.Option<string>, runnerHost: string) =>
  Effect.gen(function*() {
    const name = Option.getOrElse(given, () => runnerHost)
    const what = Option.isSome(given) ? `"${name}"` : `unset, and RUNNER_HOST "${name}"`
    const found = yield* Effect.tryPromise(() => dns.lookup(name)).pipe(
      Effect.mapError(() => invalid(`${what} does not resolve to an address of this machine`))
    )
    const refused = yield* bindRefusal(found.address)
    if (refused !== null) {
      const resolved = found.address === name ? "" : ` resolves to ${found.address}, which`
      return yield* Effect.fail(invalid(`${what}${resolved} is not an address this machine can listen on (${refused})`))
    }
    return found.address
  })
