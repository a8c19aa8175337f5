#if canImport(Glibc)
  import Glibc
#endif
import PasteboardKit

/// Files written into a user's folder under a name of pb's choosing,
/// never over an existing file: the content goes into a temporary file,
/// which is then hard-linked under the first free name (`link(2)` fails
/// rather than replace), so a file of the same name is never touched and a
/// reader never sees a partial file.
enum SavedFiles {
  /// Writes `payload` into `dir` as `base.ext`, or `base-2.ext`, ... and
  /// returns the path used. The file gets mode 0666 less the umask.
  static func save(_ payload: Payload, in dir: String, base: String, extension ext: String?) throws -> String {
    let temp = try TemporaryFile(in: dir, mode: 0o666)
    do {
      try payload.write(to: temp.descriptor)
    } catch PasteboardError.failed(let reason) {
      throw PasteboardError.failed("cannot save into \(dir): \(reason)")
    }
    let suffix = ext.map { "." + $0 } ?? ""
    for n in 1...10_000 {
      let name = n == 1 ? base + suffix : "\(base)-\(n)\(suffix)"
      let path = dir + "/" + name
      let linked = ByteString.withCString(temp.path) { old in ByteString.withCString(path) { link(old, $0) } }
      if linked == 0 {
        temp.discard()
        return path
      }
      if errno != EEXIST { throw PasteboardError.failed("cannot save \(path): \(errnoText())") }
    }
    throw PasteboardError.failed("cannot save into \(dir): every name from \(base)\(suffix) on is taken")
  }

  /// `2026-12-01-110405` in local time: names that sort by date.
  static func stamp(_ milliseconds: Int64) -> String {
    WallClock.localTimestamp(milliseconds: milliseconds).replacingDateSeparators()
  }

  /// Makes `dir` (and its parents) when it is missing, mode 0777 less the
  /// umask, as `mkdir -p` does.
  static func ensureFolder(_ dir: String) throws {
    var prefix = dir.hasPrefix("/") ? "" : "."
    for component in dir.split(separator: "/") {
      prefix += "/" + component
      if ByteString.withCString(prefix, { mkdir($0, 0o777) }) != 0 && errno != EEXIST {
        throw PasteboardError.failed("cannot create the folder \(prefix): \(errnoText())")
      }
    }
  }
}

extension String {
  /// `2026-12-01 11:04:05` as `2026-12-01-110405`.
  fileprivate func replacingDateSeparators() -> String {
    var out = ""
    for c in self {
      switch c {
      case " ": out.append("-")
      case ":": continue
      default: out.append(c)
      }
    }
    return out
  }
}
