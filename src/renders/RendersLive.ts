import { Layer } from "effect"
import { AdminLimitsHttpLive } from "./AdminLimitsHttp.js"
import { AllowanceRepo } from "./AllowanceRepo.js"
import { ClipRepo } from "./ClipRepo.js"
import { ExportFiles } from "./ExportFiles.js"
import { ExportFilesHttpLive } from "./ExportFilesHttp.js"
import { ExportHttpLive } from "./ExportHttp.js"
import { ExportRepo } from "./ExportRepo.js"
import { Exports } from "./Exports.js"
import { ExportViews } from "./ExportViews.js"
import { Keyframes } from "./Keyframes.js"
import { Quotas } from "./Quotas.js"
import { ReferenceClips } from "./ReferenceClips.js"
import { ReferenceClipsHttpLive } from "./ReferenceClipsHttp.js"
import { RenderCapacity } from "./RenderCapacity.js"
import { AssetFilesHttpLive, RenderedClipsHttpLive } from "./RenderedClipsHttp.js"
import { RenderedClips } from "./RenderedClips.js"
import { RenderJobs } from "./RenderJobs.js"
import { RenderJobsHttpLive } from "./RenderJobsHttp.js"
import { RenderJobsQuery } from "./RenderJobsQuery.js"
import { RenderOutputs } from "./RenderOutputs.js"
import { RenderRepo } from "./RenderRepo.js"
import { RendersHttpLive } from "./RendersHttp.js"

const RendersHttpGroups = Layer.mergeAll(
  RendersHttpLive,
  RenderJobsHttpLive,
  ExportHttpLive,
  ExportFilesHttpLive,
  RenderedClipsHttpLive,
  AssetFilesHttpLive,
  ReferenceClipsHttpLive,
  AdminLimitsHttpLive
)

/**
 * Render jobs, direct export, rendered clips, the allowance and quota. Also offers what this node contributes to the
 * render entities it hosts: its render slots (`RenderCapacity`) and the drawing of outputs (`RenderOutputs`).
 */
export const RendersLive = RendersHttpGroups.pipe(
  Layer.provideMerge(Layer.mergeAll(
    Exports.layer,
    ExportFiles.layer,
    Keyframes.layer,
    ReferenceClips.layer,
    RenderJobs.layer,
    RenderedClips.layer,
    Quotas.layer
  )),
  Layer.provideMerge(Layer.mergeAll(ExportViews.layer, RenderOutputs.layer, RenderCapacity.layer)),
  Layer.provideMerge(Layer.mergeAll(
    RenderRepo.layer,
    ExportRepo.layer,
    AllowanceRepo.layer,
    RenderJobsQuery.layer,
    ClipRepo.layer
  ))
)
