import { Schema } from "effect"

/** A positive whole number in a query string. */
export const PositiveIntParam = Schema.NumberFromString.pipe(Schema.int(), Schema.greaterThanOrEqualTo(1))

export const MAX_PER_PAGE = 100

/** `page` (from 1) and `perPage` (1 to 100) of a paged log's query, with its default page size. */
export const pagingParams = (defaultPerPage: number) => ({
  page: Schema.optionalWith(PositiveIntParam, { default: () => 1 }).annotations({ description: "From 1; default 1." }),
  perPage: Schema.optionalWith(PositiveIntParam.pipe(Schema.lessThanOrEqualTo(MAX_PER_PAGE)), {
    default: () => defaultPerPage
  }).annotations({ description: `1 to ${MAX_PER_PAGE}; default ${defaultPerPage}.` })
})
