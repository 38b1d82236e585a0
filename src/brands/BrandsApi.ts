import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Conflict, NotFound, SchemaValidation } from "../domain/Errors.js"
import { Authentication } from "../http/Security.js"
import { BrandSummary, BrandView, CreateBrandBody, DeleteBrandBody, UpdateBrandBody } from "./Brand.js"
import { BrandStyle } from "./BrandStyle.js"
import { PaletteAnswer, PaletteBody } from "./PaletteBody.js"

const IdPath = Schema.Struct({ id: Schema.String })
const BrandAnswer = Schema.Struct({ brand: BrandView })

export class BrandsApi extends HttpApiGroup.make("brands")
  .add(
    HttpApiEndpoint.get("list", "/brands")
      .annotate(OpenApi.Summary, "List brands")
      .addSuccess(Schema.Struct({ brands: Schema.Array(BrandSummary) }))
      .annotate(OpenApi.Description, "Every live brand, oldest first, each flattened with the channels wearing it.")
  )
  .add(
    HttpApiEndpoint.get("draft", "/brands/draft")
      .annotate(OpenApi.Summary, "Draft a new brand")
      .addSuccess(Schema.Struct({ name: Schema.String, style: BrandStyle }))
      .annotate(
        OpenApi.Description,
        "What create would compose without a body: the first free `New brand N`, identity empty. Stores nothing."
      )
  )
  .add(
    HttpApiEndpoint.get("get", "/brands/:id")
      .annotate(OpenApi.Summary, "Show a brand")
      .annotate(
        OpenApi.Description,
        "One brand of the workspace: `{ brand: { id, name, enabled, style } }`; another workspace's: 404."
      )
      .setPath(IdPath)
      .addSuccess(BrandAnswer)
      .addError(NotFound)
  )
  .add(
    HttpApiEndpoint.post("create", "/brands")
      .annotate(OpenApi.Summary, "Create a brand")
      .setPayload(Schema.NullOr(CreateBrandBody))
      .addSuccess(BrandAnswer, { status: 201 })
      .addError(Conflict)
      .annotate(
        OpenApi.Description,
        "Without a name the first free `New brand N`; `style` is merged over the draft (identity.name filled from " +
          "the name); file references are set through the slot routes. A name in use is 409."
      )
  )
  .add(
    HttpApiEndpoint.patch("update", "/brands/:id")
      .annotate(OpenApi.Summary, "Update a brand")
      .setPath(IdPath)
      .setPayload(UpdateBrandBody)
      .addSuccess(BrandAnswer)
      .addError(NotFound)
      .addError(Conflict)
      .annotate(
        OpenApi.Description,
        "`style` is deep-merged into the stored style; file references in it are ignored. `style.identity.name` " +
          "renames the brand unless another brand has that name (the save still succeeds); `name` in use is 409."
      )
  )
  .add(
    HttpApiEndpoint.post("palette", "/brands/palette")
      .annotate(OpenApi.Summary, "Derive a palette")
      .setPayload(PaletteBody)
      .addSuccess(PaletteAnswer)
      .annotate(
        OpenApi.Description,
        "Derives a palette from one brand colour for a dark or light stage, with WCAG 2.x contrast checks. Every " +
          "palette value is a hex colour (`stage` is the backdrop colour). A missing brand colour is 400 at " +
          "`/palette/brand`. Stores nothing."
      )
  )
  .add(
    HttpApiEndpoint.post("delete", "/brands/:id/delete")
      .annotate(OpenApi.Summary, "Delete a brand")
      .setPath(IdPath)
      .setPayload(DeleteBrandBody)
      .addSuccess(Schema.Struct({ deleted: Schema.Literal(true), moved: Schema.Number }))
      .addError(NotFound)
      .addError(Conflict)
      .annotate(
        OpenApi.Description,
        "A brand channels wear needs `moveTo` (another brand of the workspace), else 409 naming the count; the " +
          "channels move in the same step. `moved` counts them."
      )
  )
  .addError(SchemaValidation)
  .middleware(Authentication)
  .prefix("/v1")
  .annotate(OpenApi.Title, "Brands")
  .annotate(OpenApi.Description, "Brands: the name, style and palette a video wears.")
{}
