import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"

const FILLER = ".filler"

/**
 * DATA_DIR on a volume of its own: a tmpfs (1 GiB unless told) mounted on the folder, so that the matrix can fill it (a disk full
 * during a render) without filling the machine's disk. Mounting needs root; CI and the sessions run as root.
 */
export interface DataVolume {
  readonly path: string
  /** Fills the volume to the last byte; answers the bytes the filler took. */
  readonly fill: () => number
  readonly unfill: () => void
  readonly freeBytes: () => number
  readonly remove: () => void
}

export const mountDataVolume = (folder: string, sizeMb = 1024): DataVolume => {
  execFileSync("mount", ["-t", "tmpfs", "-o", `size=${sizeMb}m`, "tmpfs", folder])
  const filler = path.join(folder, FILLER)
  const freeBytes = () => {
    const stats = fs.statfsSync(folder)
    return stats.bavail * stats.bsize
  }
  return {
    path: folder,
    freeBytes,
    fill: () => {
      // Big writes, then small ones, until the volume refuses: full to the last block.
      const fd = fs.openSync(filler, "a")
      try {
        for (const chunk of [Buffer.alloc(16 * 2 ** 20), Buffer.alloc(4096), Buffer.alloc(1)]) {
          try {
            for (;;) fs.writeSync(fd, chunk)
          } catch {
            // this size no longer fits; the next smaller one
          }
        }
      } finally {
        fs.closeSync(fd)
      }
      return fs.statSync(filler).size
    },
    unfill: () => fs.rmSync(filler, { force: true }),
    remove: () => {
      execFileSync("umount", ["-l", folder])
      fs.rmSync(folder, { recursive: true, force: true })
    }
  }
}
