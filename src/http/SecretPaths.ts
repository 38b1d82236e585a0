/** Addresses that carry a credential in their path: a sign-in link's token. */
const SECRET_SEGMENT = /^(\/console\/sign-in\/)[^/?]+/

/** The path as spans and logs may show it: a sign-in token becomes `:token`. */
export const shownPath = (pathname: string) => pathname.replace(SECRET_SEGMENT, "$1:token")
