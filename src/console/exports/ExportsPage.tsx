import type { ErrorDetail } from "../../domain/Errors.js"
import type { SignedIn } from "../../people/People.js"
import type { QueueEntry } from "../../renders/exports/Export.js"
import type { ExportStatus } from "../../renders/RenderJob.js"
import { Layout } from "../Layout.js"
import {
  type ChosenBuild,
  fieldOfDetail,
  type StartFields,
  type StartProblem,
  type TemplateChoice
} from "./ExportForm.js"

export interface ExportsProps {
  readonly person: SignedIn
  /** Owner and Operations start exports; members only look. */
  readonly canStart: boolean
  readonly choices: ReadonlyArray<TemplateChoice>
  /** The template the form is for; none when the workspace may use no template. */
  readonly chosen: ChosenBuild | undefined
  /** What was sent, when it is shown again with its problems; otherwise the example. */
  readonly fields?: StartFields | undefined
  readonly problem?: StartProblem | undefined
  readonly recent: ReadonlyArray<QueueEntry>
}

export const statusLabel = (status: ExportStatus) => {
  switch (status) {
    case "queued":
      return "Waiting"
    case "rendering":
      return "Rendering"
    case "succeeded":
      return "Done"
    case "failed":
      return "Failed"
    case "timed_out":
      return "Timed out"
    case "cancelled":
      return "Cancelled"
  }
}

export const when = (iso: string) => `${iso.slice(0, 16).replace("T", " ")} UTC`

const FieldProblems = (
  { details, field, id }: { readonly details: ReadonlyArray<ErrorDetail>; readonly field: string; readonly id: string }
) => {
  const mine = details.filter((d) => fieldOfDetail(d.path) === field)
  return mine.length === 0 ? "" : (
    <ul class="field-errors" id={id}>
      {mine.map((d) => <li safe>{d.path === "" ? d.message : `${d.path}: ${d.message}`}</li>)}
    </ul>
  )
}

const hasProblem = (problem: StartProblem | undefined, field: string) =>
  problem !== undefined && problem.details.some((d) => fieldOfDetail(d.path) === field)

/** Attributes tying a field to its problems, for screen readers. */
const invalid = (problem: StartProblem | undefined, field: string) =>
  hasProblem(problem, field) ? { "aria-invalid": "true", "aria-describedby": `${field}-errors` } : {}

const ChooseTemplate = ({ choices, chosen }: Pick<ExportsProps, "choices" | "chosen">) => (
  <form method="get" action="/console/exports" class="filters" aria-label="Choose a template">
    <div>
      <label for="choose-template">Template</label>
      <select id="choose-template" name="template">
        {choices.map((c) => <option value={c.key} selected={c.key === chosen?.key} safe>{c.label}</option>)}
      </select>
    </div>
    <button type="submit" class="quiet">Use template</button>
  </form>
)

const StartForm = (
  { chosen, fields, problem }: {
    readonly chosen: ChosenBuild
    readonly fields: StartFields
    readonly problem?: StartProblem | undefined
  }
) => (
  <form method="post" action="/console/exports" class="start-export">
    <input type="hidden" name="template" value={chosen.key} />
    <input type="hidden" name="version" value={chosen.version} />
    <p class="muted" safe>{`${chosen.templateName}, ${chosen.variant} ${chosen.version}.`}</p>
    <FieldProblems details={problem?.details ?? []} field="template" id="template-errors" />
    <label for="export-ratio">Shape</label>
    <select id="export-ratio" name="ratio" {...invalid(problem, "ratio")}>
      {chosen.ratios.map((r) => <option value={r} selected={r === fields.ratio} safe>{r.replace("x", ":")}</option>)}
    </select>
    <FieldProblems details={problem?.details ?? []} field="ratio" id="ratio-errors" />
    <label for="export-title">Title (optional)</label>
    <input
      type="text"
      id="export-title"
      name="title"
      maxlength="120"
      value={fields.title}
      {...invalid(problem, "title")}
    />
    <FieldProblems details={problem?.details ?? []} field="title" id="title-errors" />
    <label for="export-data">Data (JSON)</label>
    <textarea id="export-data" name="data" rows="16" spellcheck="false" class="code" {...invalid(problem, "data")} safe>
      {fields.data}
    </textarea>
    <FieldProblems details={problem?.details ?? []} field="data" id="data-errors" />
    <p class="muted">Prefilled with the template's example; pictures must be in the media library.</p>
    <button type="submit">Start export</button>
  </form>
)

const Recent = ({ recent }: { readonly recent: ReadonlyArray<QueueEntry> }) => (
  <section class="card" aria-labelledby="recent-heading">
    <h2 id="recent-heading">Recent exports</h2>
    {recent.length === 0 ? <p class="muted">No exports yet.</p> : (
      <table class="exports">
        <caption class="visually-hidden">Exports waiting, rendering, failed lately and kept, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Export</th>
            <th scope="col">Shape</th>
            <th scope="col">State</th>
            <th scope="col">Started</th>
          </tr>
        </thead>
        <tbody>
          {recent.map((e) => (
            <tr>
              <td class="wrap">
                <a href={`/console/exports/${encodeURIComponent(e.jobId)}`} safe>
                  {`${e.templateName} ${e.variant} ${e.version}`}
                </a>
              </td>
              <td safe>{e.ratio}</td>
              <td safe>
                {e.status === "queued"
                  ? `Waiting (${e.ahead} ahead)`
                  : e.status === "rendering"
                  ? `Rendering ${Math.round(e.progress)}%`
                  : statusLabel(e.status)}
              </td>
              <td safe>{when(e.createdAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    )}
  </section>
)

/** The prefilled data: the example, indented so a person can read and change it. */
export const exampleText = (example: unknown) => JSON.stringify(example, null, 2)

/** `/console/exports`: start a direct export from a template, and the recent exports. */
export const exportsPage = ({ canStart, choices, chosen, fields, person, problem, recent }: ExportsProps) => (
  <Layout title="Exports" person={person} current="/console/exports">
    <h1>Exports</h1>
    {problem === undefined ? "" : (
      <div class="notice error" role="alert">
        <p safe>{problem.message}</p>
        {problem.details.length === 0 ? "" : (
          <ul>
            {problem.details.map((d) => <li safe>{d.path === "" ? d.message : `${d.path}: ${d.message}`}</li>)}
          </ul>
        )}
      </div>
    )}
    {canStart
      ? (
        <section class="card" aria-labelledby="start-heading">
          <h2 id="start-heading">Start an export</h2>
          {chosen === undefined
            ? <p>No template is cleared for this workspace; the operator decides which templates it may use.</p>
            : (
              <>
                <ChooseTemplate choices={choices} chosen={chosen} />
                <StartForm
                  chosen={chosen}
                  fields={fields ?? {
                    template: chosen.key,
                    version: chosen.version,
                    ratio: chosen.ratios[0] ?? "",
                    title: "",
                    data: exampleText(chosen.example)
                  }}
                  problem={problem}
                />
              </>
            )}
        </section>
      )
      : <p class="muted">Members see the exports; the owner and Operations start them.</p>}
    <Recent recent={recent} />
  </Layout>
)
