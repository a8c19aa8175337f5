#if canImport(Glibc)
  import Glibc
#endif

/// Starts background processes that hold nothing of their caller: a new
/// session (no controlling terminal, no SIGHUP from it), standard input,
/// output and error on /dev/null, working directory `/`, and no other
/// descriptor but those handed over.
///
/// A background helper that kept the caller's pipe open would make
/// `$(pb copy)` or `pb copy | cat` hang until it exited.
public enum DetachedProcess {
  /// The running executable, for re-executing pb with a hidden command.
  public static let selfExecutable = "/proc/self/exe"

  /// Spawns `executable` with `arguments` (argv[0] included) detached.
  ///
  /// - Parameters:
  ///   - descriptors: further descriptors to hand over, each `source` of
  ///     this process duplicated onto `target` in the child (sources must
  ///     not be among the targets).
  ///   - blockingStopSignals: start the child with SIGHUP, SIGINT and
  ///     SIGTERM blocked, for a child that sets its own dispositions
  ///     before it unblocks them.
  /// - Returns: the child's process id.
  /// - Throws: `.failed` when the process cannot be started.
  @discardableResult
  public static func spawn(
    _ executable: String, arguments: [String], descriptors: [(source: Int32, target: Int32)] = [],
    blockingStopSignals: Bool = false
  ) throws -> pid_t {
    var setup = SpawnSetup()
    setup.grouping = .newSession
    setup.opened = [
      (STDIN_FILENO, "/dev/null", O_RDONLY), (STDOUT_FILENO, "/dev/null", O_WRONLY),
      (STDERR_FILENO, "/dev/null", O_WRONLY),
    ]
    setup.descriptors = descriptors
    if blockingStopSignals { setup.blocked = [SIGHUP, SIGINT, SIGTERM] }
    do {
      return try setup.spawn(executable, arguments: arguments)
    } catch PasteboardError.failed(let reason) {
      throw PasteboardError.failed("cannot start a background pb process: \(reason)")
    }
  }
}
