import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type BenchNode, startBenchNode, stopsOnce } from "../../bench/support/BenchRun.js"
import { firingOf, waitFired } from "../../bench/support/ScheduleRun.js"
import { prepareLists, schedulePackages } from "../../bench/support/ScheduleSetup.js"

const stops = stopsOnce()
let bench: BenchNode

beforeAll(async () => {
  bench = await startBenchNode("schedule_bench", {}, stops)
})

afterAll(stops.run)

describe("npm run bench:schedule, a short profile", () => {
  it(
    "40 packages due within 5 s across the lists of 2 workspaces, 100 for tomorrow: each due one fires once, the others wait",
    async () => {
      const { node, db } = bench
      const lists = await prepareLists(node, 2, 2)
      const tomorrow = Date.now() + 86_400_000
      const held = await schedulePackages(node, lists, 100, (i) => new Date(tomorrow + i * 1000))
      // The lead time follows how fast this machine just scheduled the 100 (a loaded CI machine took over 8 s for 40).
      const firstDue = Date.now() + Math.max(8000, 2000 + held.ms * 2 * 40 / 100)
      const batch = await schedulePackages(node, lists, 40, (i) => new Date(firstDue + Math.floor(i * 5000 / 40)))
      expect(Date.now(), "the batch was scheduled before its first package was due").toBeLessThan(firstDue)

      expect(await waitFired(db, batch.ids, firstDue + 30_000)).toBe(40)
      const firing = await firingOf(db, batch.ids)
      expect(firing).toMatchObject({ packages: 40, fired: 40, early: 0, notOnce: 0, jobs: 0 })
      expect(firing.latenessMs).toHaveLength(40)
      expect(await firingOf(db, held.ids)).toMatchObject({ packages: 100, fired: 0, notOnce: 0 })
    },
    120_000
  )
})
