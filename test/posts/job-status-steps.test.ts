import { readdirSync, readFileSync, statSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { finished, JobStatus } from "../../src/posts/JobStatus.js"
import { derivedStatuses, statusSteps } from "../../src/posts/JobStatusSteps.js"

const doc = readFileSync(new URL("../../docs/pipeline.md", import.meta.url), "utf8")
const NEW = "[*]"

const sectionOf = (heading: string) => {
  const start = doc.indexOf(`\n${heading}\n`)
  expect(start, `docs/pipeline.md has "${heading}"`).toBeGreaterThan(0)
  const end = doc.indexOf("\n## ", start + heading.length + 2)
  return doc.slice(start, end < 0 ? undefined : end)
}
const cellsOf = (line: string) => line.split("|").slice(1, -1).map((cell) => cell.trim())
const namesIn = (cell: string) => [...cell.matchAll(/`([A-Za-z_]+)`/g)].map((m) => m[1]!)

/** The rows of the steps table in docs/pipeline.md, as `statusSteps` spells them. */
const documentedSteps = () =>
  Object.fromEntries(
    sectionOf("## The steps").split("\n").filter((line) => line.startsWith("| `")).map((line) => {
      const [name, from, to, by] = cellsOf(line)
      return [namesIn(name!)[0], { from: from === "(new job)" ? [] : namesIn(from!), to: namesIn(to!)[0], by }]
    })
  )

/** The diagram's edges, `from>to`, a new job's from as `[*]`. */
const diagramEdges = () => {
  const mermaid = doc.slice(doc.indexOf("```mermaid"), doc.indexOf("```", doc.indexOf("```mermaid") + 3))
  return new Set([...mermaid.matchAll(/^\s*(\[\*\]|[A-Z_]+) --> ([A-Z_]+)/gm)].map((m) => `${m[1]}>${m[2]}`))
}

const steps = Object.values(statusSteps)
const edges = new Set(
  steps.flatMap((step) => (step.from.length === 0 ? [NEW] : step.from).map((from) => `${from}>${step.to}`))
)
const stored = JobStatus.literals.filter((status) => !derivedStatuses.includes(status))
const leaving = (status: JobStatus) => steps.filter((step) => (step.from as ReadonlyArray<JobStatus>).includes(status))

describe("the job state machine (JobStatusSteps)", () => {
  it("is the table of docs/pipeline.md, step for step", () => {
    expect(documentedSteps()).toEqual(JSON.parse(JSON.stringify(statusSteps)))
  })

  it("draws the same moves as the diagram of docs/pipeline.md", () => {
    expect([...diagramEdges()].sort()).toEqual([...edges].sort())
  })

  it("names the statuses the docs name, stored and derived alike", () => {
    const rows = sectionOf("## Statuses").split("\n").filter((line) => line.startsWith("| `"))
    const named = rows.flatMap((line) => namesIn(cellsOf(line)[0]!))
    const derived = rows.filter((line) => cellsOf(line).at(-1)!.startsWith("derived")).flatMap((line) =>
      namesIn(cellsOf(line)[0]!)
    )
    expect([...named].sort()).toEqual([...JobStatus.literals].sort())
    expect(derived.sort()).toEqual([...derivedStatuses].sort())
  })

  it("reaches every stored status from a new job, and never a derived one", () => {
    const reached = new Set<JobStatus>()
    let next: Array<JobStatus> = steps.filter((step) => step.from.length === 0).map((step) => step.to)
    while (next.length > 0) {
      for (const status of next) reached.add(status)
      next = next.flatMap((status) => leaving(status).map((step) => step.to)).filter((status) => !reached.has(status))
    }
    expect([...reached].sort()).toEqual([...stored].sort())
    for (const status of derivedStatuses) expect(leaving(status)).toEqual([])
  })

  it("gives the ends no way out, and every other stored status a way on to an end", () => {
    const ends = stored.filter((status) => leaving(status).length === 0)
    expect(ends.sort()).toEqual(["CANCELLED", "DELETED", "REJECTED", "RENDER_FAILED"])
    for (const end of ends) expect(finished.has(end)).toBe(true)
    for (const status of stored) {
      const seen = new Set<JobStatus>([status])
      let next = [status]
      while (next.length > 0) {
        next = next.flatMap((s) => leaving(s).map((step) => step.to)).filter((s) => !seen.has(s))
        for (const s of next) seen.add(s)
      }
      expect(ends.some((end) => seen.has(end)), `${status} leads to an end`).toBe(true)
    }
  })
})

const sources = (dir: string): Array<string> =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? sources(path) : path.endsWith(".ts") ? [path] : []
  })

describe("status writes in src/", () => {
  const src = new URL("../../src", import.meta.url).pathname
  const statuses = JobStatus.literals.join("|")
  const files = sources(src).map((path) => ({ path: path.slice(src.length + 1), text: readFileSync(path, "utf8") }))
  // A SET clause of jobs or posts, up to its WHERE (or the statement's end).
  const setClauses = (text: string) =>
    [...text.matchAll(/UPDATE (jobs|posts)\b(?: \w+)? SET ([\s\S]*?)(?:\bWHERE\b|`)/g)].map((m) => ({
      table: m[1]!,
      set: m[2]!
    }))

  it("move a status only in files that take it from a step", () => {
    const writers = files.filter((file) =>
      setClauses(file.text).some(({ set, table }) =>
        new RegExp(`\\b${table === "jobs" ? "status" : "state"}\\s*=`).test(set)
      )
    )
    expect(writers.map((file) => file.path).sort()).toEqual([
      "delivery/handover/DueRepo.ts",
      "delivery/handover/PostOutcomes.ts",
      "publishing/states/JobRepo.ts"
    ])
    for (const file of writers) expect(file.text, file.path).toMatch(/ from "(\.\.\/)+posts\/JobStatusSteps\.js"/)
  })

  it("never spell the status they write", () => {
    const literal = new RegExp(`'(${statuses})'`)
    for (const file of files) {
      for (const { set } of setClauses(file.text)) expect(literal.test(set), `${file.path}: ${set}`).toBe(false)
      for (const m of file.text.matchAll(/INSERT INTO (?:jobs|posts)\b[\s\S]*?(?:RETURNING|ON CONFLICT|`)/g)) {
        expect(literal.test(m[0]), `${file.path}: ${m[0]}`).toBe(false)
      }
    }
  })
})
