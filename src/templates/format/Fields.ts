/** One input of a template build. The keys tree, the JSON Schema and the validator are all derived from these. */
export type Field = TextField | NumberField | EnumField | ListField | GroupField

interface FieldBase {
  readonly key: string
  readonly label: string
  readonly required: boolean
}

export interface TextPattern {
  readonly regex: string
  readonly expected: string
  readonly message: string
}

export interface TextField extends FieldBase {
  readonly type: "text"
  readonly maxLength: number
  readonly pattern?: TextPattern
}

export interface NumberField extends FieldBase {
  readonly type: "number"
  readonly decimals: number
}

export interface EnumField extends FieldBase {
  readonly type: "enum"
  readonly values: ReadonlyArray<string>
}

export interface ListField extends FieldBase {
  readonly type: "list"
  readonly maxItems: number
  readonly item: Field
}

export interface GroupField extends FieldBase {
  readonly type: "group"
  readonly fields: ReadonlyArray<Field>
}

/** Per-build limits of the shared content shape; a count of 0 leaves that list out of the build. */
export interface ContentLimits {
  readonly headline: number
  readonly subline: number
  readonly figures: number
  readonly figureLabel: number
  readonly figureUnit: number
  readonly bullets: number
  readonly bulletLength: number
  readonly images: number
  readonly source: number
}

export const directions: ReadonlyArray<string> = ["up", "down", "flat"]

export const mediaUrlPattern: TextPattern = {
  regex: "^media://.+$",
  expected: "media://<file id or name>",
  message: "A picture must be a media library reference (media://<file id or name>); web addresses are not fetched"
}

const text = (key: string, label: string, maxLength: number, required = false): TextField => ({
  type: "text",
  key,
  label,
  required,
  maxLength
})

const figureItem = (limits: ContentLimits): GroupField => ({
  type: "group",
  key: "figure",
  label: "Figure",
  required: true,
  fields: [
    text("label", "Label", limits.figureLabel, true),
    { type: "number", key: "value", label: "Value", required: true, decimals: 4 },
    text("unit", "Unit", limits.figureUnit),
    { type: "enum", key: "direction", label: "Direction", required: false, values: directions }
  ]
})

const pictureItem: GroupField = {
  type: "group",
  key: "image",
  label: "Picture",
  required: true,
  fields: [
    { ...text("url", "Picture address (media://…)", 300, true), pattern: mediaUrlPattern },
    text("alt", "Alternative text", 200)
  ]
}

const list = (key: string, label: string, maxItems: number, item: Field): ReadonlyArray<ListField> =>
  maxItems > 0 ? [{ type: "list", key, label, required: false, maxItems, item }] : []

export const clipDataField = (limits: ContentLimits): GroupField => ({
  type: "group",
  key: "clipData",
  label: "Drawn in the clip",
  required: true,
  fields: [
    text("headline", "Headline", limits.headline, true),
    text("subline", "Subline", limits.subline),
    ...list("figures", "Figures", limits.figures, figureItem(limits)),
    ...list("bullets", "Bullet points", limits.bullets, text("bullet", "Bullet point", limits.bulletLength, true)),
    ...list("images", "Pictures", limits.images, pictureItem),
    text("source", "Source line", limits.source)
  ]
})

export const metaDataField: GroupField = {
  type: "group",
  key: "metaData",
  label: "Post text (never drawn)",
  required: false,
  fields: [
    text("title", "Title", 100),
    text("captionShort", "Short caption (Telegram)", 280),
    text("captionMedium", "Medium caption (Instagram, TikTok, Facebook Reels, LinkedIn)", 2200),
    text("captionLong", "Long caption (YouTube, Facebook Feed)", 5000),
    ...list("hashtags", "Hashtags", 30, text("hashtag", "Hashtag", 60, true))
  ]
}

/** The top-level inputs of a build, in document order. `locales` is handled beside these, not as a field. */
export const contentFields = (limits: ContentLimits): ReadonlyArray<GroupField> => [
  clipDataField(limits),
  metaDataField
]
