/**
 * `/console/assets/zone.js`: tells the server the browser's time zone through the `clipwright_zone` cookie, once (a
 * zone the person chose is kept). A page shown in UTC for want of it is loaded again, unless cookies are off.
 */
export const ZONE_JS = `(function () {
  var name = "clipwright_zone="
  var has = function () {
    return document.cookie.split("; ").some(function (c) { return c.indexOf(name) === 0 })
  }
  if (has()) return
  var zone = Intl.DateTimeFormat().resolvedOptions().timeZone
  if (!zone) return
  document.cookie = name + encodeURIComponent(zone) + "; path=/console; max-age=31536000; samesite=lax" +
    (location.protocol === "https:" ? "; secure" : "")
  if (has() && document.querySelector("[data-zone-default]")) location.reload()
})()
`
