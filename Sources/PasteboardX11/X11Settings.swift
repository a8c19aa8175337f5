#if canImport(Glibc)
  import Glibc
#endif
import PasteboardKit

/// Timeouts and sizes of the X11 backend, with their defaults and the
/// hidden environment variables that tests and benchmarks use to change
/// them.
struct X11Settings {
  /// How long an owner may take to answer a conversion (`--timeout`).
  var answerMilliseconds: Int64 = 5000
  /// How long a paste waits for the next INCR chunk.
  var idleMilliseconds: Int64 = 10_000
  /// How long an owner waits for a requestor to take the next INCR chunk.
  /// Longer than the reader's limit: a paste into a pipe whose reader
  /// pauses (`pb paste | less`) stops taking chunks while it waits, and
  /// a reader that is gone is noticed at once (DestroyNotify) anyway.
  var ownerIdleMilliseconds: Int64 = 30_000
  /// How long a bare connection attempt may take before the display
  /// counts as unreachable.
  var probeMilliseconds: Int64 = 1000
  /// How long an exiting owner waits for a clipboard manager to take the
  /// content over (SAVE_TARGETS).
  var handoverMilliseconds: Int64 = 3000
  /// Payloads larger than this go by INCR, to every requestor; nil
  /// chooses by requestor and server (`chunkSize(maxRequestBytes:forPB:)`).
  /// `PB_X11_CHUNK_SIZE` sets it.
  var chunkSize: Int?

  /// The defaults, with `PB_X11_CHUNK_SIZE` and `PB_X11_IDLE_TIMEOUT`
  /// (a DURATION, for both sides of INCR) applied.
  static func fromEnvironment(answerMilliseconds: Int64? = nil) -> X11Settings {
    var s = X11Settings()
    if let a = answerMilliseconds { s.answerMilliseconds = max(1, a) }
    if let text = environmentValue("PB_X11_CHUNK_SIZE"), let n = Int(text), n >= 16 {
      s.chunkSize = n & ~3
    }
    if let text = environmentValue("PB_X11_IDLE_TIMEOUT"), let ms = try? DurationParser.milliseconds(text), ms > 0 {
      s.idleMilliseconds = ms
      s.ownerIdleMilliseconds = ms
    }
    return s
  }

  /// The INCR threshold and chunk size for one requestor, on a server
  /// taking requests of up to `maxRequestBytes` (always a multiple of 4,
  /// with room for the request header).
  ///
  /// pb's own requestor, which names pb's transfer property
  /// (`PB_SELECTION`), gets 1 MiB per property: the fewest round trips
  /// at which a transfer is fastest (larger chunks measured slower). Every
  /// other requestor gets at most 256 KiB, as GTK sends: Tk refuses a
  /// property of more than about 400,000 bytes ("selection property too
  /// large"), even within INCR. `PB_X11_CHUNK_SIZE` sets both.
  func chunkSize(maxRequestBytes: Int, forPB: Bool) -> Int {
    let limit = max(1024, maxRequestBytes - 1024) & ~3
    return min(chunkSize ?? (forPB ? 1 << 20 : 256 << 10), limit)
  }
}

/// An optional trace of the owner's decisions, appended to the file named
/// by `PB_X11_LOG` (the background owner has no terminal to write to).
enum OwnerLog {
  nonisolated(unsafe) private static var fd: Int32 = -2

  /// Forgets the log's descriptor (closed by a forked owner); the next
  /// note opens it again.
  static func reopen() { fd = -2 }

  static func note(_ message: @autoclosure () -> String) {
    if fd == -2 {
      fd = environmentValue("PB_X11_LOG").map { open($0, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600) } ?? -1
    }
    guard fd >= 0 else { return }
    let line = Array("pb[\(getpid())] \(message())\n".utf8)
    _ = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
  }
}
