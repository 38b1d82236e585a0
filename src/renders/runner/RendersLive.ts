import { Layer } from "effect"
import { AdminLimitsHttpLive } from "../allowance/AdminLimitsHttp.js"
import { AllowanceRepo } from "../allowance/AllowanceRepo.js"
import { Quotas } from "../allowance/Quotas.js"
import { RenderCapacity } from "../allowance/RenderCapacity.js"
import { RendersHttpLive } from "../allowance/RendersHttp.js"
import { ClipRepo } from "../clips/ClipRepo.js"
import { PipelineClips } from "../clips/PipelineClips.js"
import { ReferenceClips } from "../clips/ReferenceClips.js"
import { ReferenceClipsHttpLive } from "../clips/ReferenceClipsHttp.js"
import { RenderedClips } from "../clips/RenderedClips.js"
import { AssetFilesHttpLive, RenderedClipsHttpLive } from "../clips/RenderedClipsHttp.js"
import { DrawTurns } from "../exports/DrawTurns.js"
import { ExportFiles } from "../exports/ExportFiles.js"
import { ExportFilesHttpLive } from "../exports/ExportFilesHttp.js"
import { ExportHttpLive } from "../exports/ExportHttp.js"
import { ExportRepo } from "../exports/ExportRepo.js"
import { Exports } from "../exports/Exports.js"
import { ExportViews } from "../exports/ExportViews.js"
import { Keyframes } from "../exports/Keyframes.js"
import { RenderRepo } from "../RenderRepo.js"
import { DrawsForOthers } from "./DrawsForOthers.js"
import { OrphanRenders } from "./OrphanRenders.js"
import { PipelineRenders } from "./PipelineRenders.js"
import { RenderJobs } from "./RenderJobs.js"
import { RenderJobsHttpLive } from "./RenderJobsHttp.js"
import { RenderJobsQuery } from "./RenderJobsQuery.js"
import { RenderOutputs } from "./RenderOutputs.js"

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
 * render entities it hosts: its render slots (`RenderCapacity`) and the drawing of outputs (`RenderOutputs`), also of
 * renders whose runner lives on another node (`DrawsForOthers`); and the sweep that starts again a render nobody draws
 * (`OrphanRenders`).
 */
export const RendersLive = RendersHttpGroups.pipe(
  Layer.provideMerge(Layer.mergeAll(
    Exports.layer,
    ExportFiles.layer,
    Keyframes.layer.pipe(Layer.provide(DrawTurns.layer)),
    ReferenceClips.layer,
    RenderJobs.layer,
    RenderedClips.layer,
    Quotas.layer,
    OrphanRenders,
    DrawsForOthers
  )),
  Layer.provideMerge(Layer.mergeAll(
    ExportViews.layer,
    RenderOutputs.layer,
    RenderCapacity.layer,
    PipelineRenders.layer,
    PipelineClips.layer
  )),
  Layer.provideMerge(Layer.mergeAll(
    RenderRepo.layer,
    ExportRepo.layer,
    AllowanceRepo.layer,
    RenderJobsQuery.layer,
    ClipRepo.layer
  ))
)
