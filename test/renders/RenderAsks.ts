import type { PipelineRender } from "../../src/renders/runner/PipelineRenders.js"

/** A video of the market template that `contentKey` tells apart from others, as a job asks for it. */
export const videoOf = (contentKey: string): PipelineRender => ({
  package: {
    template: { id: "tpl_3a7c91e04b5d", name: "Market move", variant: "compact", version: "1.0.1" },
    content: { clipData: { headline: contentKey } },
    brand: null,
    channel: null,
    options: { outputs: [{ ratio: "9x16", locale: "en" }], priority: false }
  },
  contentKey,
  origin: "custom",
  details: "render once",
  postTitle: null,
  templateName: "Market move"
})
