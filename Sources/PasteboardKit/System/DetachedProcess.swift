#if canImport(Glibc)
  import Glibc
#endif

/// Starts background processes that hold nothing of their caller: a new
/// session (no controlling terminal, no SIGHUP from it), standard input,
/// output and error on /dev/null, working directory `/` (see
/// `settleChild`).
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
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for fd in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] {
      posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == STDIN_FILENO ? O_RDONLY : O_WRONLY, 0)
    }
    for (source, target) in descriptors { posix_spawn_file_actions_adddup2(&actions, source, target) }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    // The child starts with default dispositions whatever the caller
    // ignores, and optionally with the stop signals blocked.
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for s in [SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGCHLD] { sigaddset(&defaults, s) }
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    var flags = Int16(POSIX_SPAWN_SETSIGDEF) | 0x80  // 0x80: POSIX_SPAWN_SETSID (glibc), not imported
    if blockingStopSignals {
      var stops = sigset_t()
      sigemptyset(&stops)
      for s in [SIGHUP, SIGINT, SIGTERM] { sigaddset(&stops, s) }
      posix_spawnattr_setsigmask(&attributes, &stops)
      flags |= Int16(POSIX_SPAWN_SETSIGMASK)
    }
    posix_spawnattr_setflags(&attributes, flags)
    let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    let status = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
    guard status == 0 else {
      throw PasteboardError.failed("cannot start a background pb process \(executable): \(errnoText(status))")
    }
    return pid
  }

  /// What a spawned child does first: moves to `/` (so it keeps no
  /// directory busy) and closes every descriptor above standard error
  /// except `keep`, since the caller may have left some without
  /// close-on-exec.
  public static func settleChild(keeping keep: Set<Int32> = []) {
    _ = chdir("/")
    for name in listDirectory("/proc/self/fd") {
      if let fd = Int32(name), fd > 2, !keep.contains(fd) { close(fd) }
    }
  }
}
