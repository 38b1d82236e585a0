/** Polls `done` every 200 ms until it holds; throws, naming `what`, when it has not within `timeoutMs`. */
export const until = async (what: string, done: () => boolean | Promise<boolean>, timeoutMs: number) => {
  const deadline = Date.now() + timeoutMs
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

/** Polls `get` every 200 ms until it answers something; answers that, or throws naming `what` after `timeoutMs`. */
export const eventually = async <A>(what: string, get: () => Promise<A | undefined>, timeoutMs: number): Promise<A> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await get()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}
