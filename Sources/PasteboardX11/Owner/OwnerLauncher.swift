import CX11
#if canImport(Glibc)
  import Glibc
#endif
import PasteboardKit

/// Starts the background owner and waits until it owns the selection.
///
/// The owner is pb itself, re-executed (`/proc/self/exe __x11-serve …`)
/// with `posix_spawn` rather than forked, so no Xlib or Swift runtime state
/// is shared across a fork. It starts in a session of its own with
/// /dev/null on descriptors 0, 1 and 2, the content memfd on 3 and the
/// status pipe on 4, and closes everything else itself: it keeps no
/// terminal, pipe or file of the caller, so `$(pb copy)` and
/// `pb copy | cat` return at once.
enum OwnerLauncher {
  /// Spawns `executable` to serve `request` from `content`, and returns
  /// once it reports that it owns every selection.
  ///
  /// - Returns: the owner's process id.
  /// - Throws: the owner's own error (display unreachable, ownership
  ///   refused) or `.timedOut` when it does not report in time.
  static func launch(
    executable: String, request: ServeRequest, content: Descriptor, waitMilliseconds: Int64
  ) throws -> pid_t {
    var pipeFDs: [Int32] = [-1, -1]
    guard pipe(&pipeFDs) == 0 else { throw failure("create a status pipe") }
    _ = fcntl(pipeFDs[0], F_SETFD, FD_CLOEXEC)
    let statusRead = Descriptor(pipeFDs[0])
    // Both go above 4 so that the dup2 onto 3 and 4 below cannot overwrite
    // one with the other; the parent's copies of the write end are closed
    // right after the spawn so that a dying owner reads as end of file.
    let contentHigh = fcntl(content.rawValue, F_DUPFD_CLOEXEC, 10)
    var statusHigh = fcntl(pipeFDs[1], F_DUPFD_CLOEXEC, 10)
    close(pipeFDs[1])
    defer {
      close(contentHigh)
      if statusHigh >= 0 { close(statusHigh) }
    }
    guard contentHigh >= 0, statusHigh >= 0 else { throw failure("prepare descriptors") }

    // The owner starts with hangup, interrupt and terminate blocked and
    // sets its own dispositions before it unblocks them.
    let pid = try DetachedProcess.spawn(
      executable, arguments: ["pb"] + request.arguments,
      descriptors: [(contentHigh, ServeRequest.contentFD), (statusHigh, ServeRequest.statusFD)],
      blockingStopSignals: true)
    close(statusHigh)  // only the owner holds the write end now
    statusHigh = -1
    return try awaitStatus(statusRead, pid: pid, waitMilliseconds: waitMilliseconds)
  }

  private static func awaitStatus(_ status: Descriptor, pid: pid_t, waitMilliseconds: Int64) throws -> pid_t {
    let deadline = WallClock.monotonicMilliseconds() + waitMilliseconds
    var line: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 512)
    while !line.contains(0x0A) {
      if WallClock.monotonicMilliseconds() >= deadline {
        kill(pid, SIGKILL)
        var st: Int32 = 0
        waitpid(pid, &st, 0)
        throw PasteboardError.timedOut("the background owner did not take the selection within \(describeDuration(waitMilliseconds))")
      }
      guard awaitReadiness(status.rawValue, for: Int16(POLLIN), until: deadline) == .ready else { continue }
      let got = buffer.withUnsafeMutableBytes { read(status.rawValue, $0.baseAddress, $0.count) }
      if got < 0 && errno == EINTR { continue }
      if got <= 0 { break }
      line += buffer[0..<got]
    }
    let text = String(decoding: line.prefix { $0 != 0x0A }, as: UTF8.self)
    if text == "ok" { return pid }
    var st: Int32 = 0
    waitpid(pid, &st, 0)
    if text.isEmpty {
      throw PasteboardError.failed("the background owner ended before it owned the selection (status \(st))")
    }
    throw OwnerStatus.decode(text) ?? .failed(text)
  }

  private static func failure(_ action: String) -> PasteboardError {
    .failed("cannot \(action): \(errnoText())")
  }
}
