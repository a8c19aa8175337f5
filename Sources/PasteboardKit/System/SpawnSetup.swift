import CSystem

#if canImport(Glibc)
  import Glibc
#endif

/// The attributes and file actions of a `posix_spawn`, set one by one and
/// explicitly, shared by pb's two kinds of child: detached background
/// processes (`DetachedProcess`) and programs pb runs and waits for
/// (`ChildProcess`).
///
/// Every child starts with default dispositions for the signals that
/// matter (an ignored SIGPIPE or SIGINT would otherwise be inherited
/// through exec), in `/`, with nothing open beyond the descriptors it is
/// given: the caller may hold descriptors without close-on-exec.
struct SpawnSetup {
  /// How the child is grouped.
  enum Grouping {
    /// A session of its own: no controlling terminal, no SIGHUP from it.
    case newSession
    /// A process group of its own (the child leads it), so that the whole
    /// group, grandchildren included, can be signalled at once.
    case newGroup
  }

  /// Where each of the child's descriptors comes from: `source` in this
  /// process is duplicated onto `target` in the child.
  var descriptors: [(source: Int32, target: Int32)] = []
  /// Descriptors opened from a path in the child (`/dev/null`).
  var opened: [(target: Int32, path: String, flags: Int32)] = []
  var grouping = Grouping.newGroup
  /// Signals blocked in the child (for a child that sets its own
  /// dispositions before it unblocks them); empty by default.
  var blocked: [Int32] = []
  var directory = "/"

  /// The signals that start with their default disposition.
  static let defaulted = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGCHLD]

  /// Starts `executable` (searched on PATH when it has no slash) with
  /// `arguments` (argv[0] included) and `environment` (nil: this
  /// process's).
  /// - Throws: `.failed` naming the program and the system's reason.
  func spawn(_ executable: String, arguments: [String], environment: [String]? = nil) throws -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for (target, path, flags) in opened { posix_spawn_file_actions_addopen(&actions, target, path, flags, 0) }
    for (source, target) in descriptors { posix_spawn_file_actions_adddup2(&actions, source, target) }
    let highest = (descriptors.map(\.target) + opened.map(\.target) + [STDERR_FILENO]).max() ?? STDERR_FILENO
    posix_spawn_file_actions_addclosefrom_np(&actions, highest + 1)
    posix_spawn_file_actions_addchdir_np(&actions, directory)

    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for s in SpawnSetup.defaulted { sigaddset(&defaults, s) }
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    var mask = sigset_t()
    sigemptyset(&mask)
    for s in blocked { sigaddset(&mask, s) }
    posix_spawnattr_setsigmask(&attributes, &mask)
    var flags = Int32(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK)
    switch grouping {
    case .newSession: flags |= PB_POSIX_SPAWN_SETSID
    case .newGroup:
      flags |= Int32(POSIX_SPAWN_SETPGROUP)
      posix_spawnattr_setpgroup(&attributes, 0)
    }
    posix_spawnattr_setflags(&attributes, Int16(flags))

    // Arguments keep their bytes (a file name that is not UTF-8).
    let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { a in ByteString.withCString(a) { strdup($0) } } + [nil]
    defer { argv.forEach { free($0) } }
    let envp: [UnsafeMutablePointer<CChar>?]? = environment.map { $0.map { e in ByteString.withCString(e) { strdup($0) } } + [nil] }
    defer { envp?.forEach { free($0) } }
    var pid: pid_t = 0
    let status = envp.withOptionalPointer { env in
      executable.contains("/")
        ? posix_spawn(&pid, executable, &actions, &attributes, argv, env ?? UnsafePointer(environ))
        : posix_spawnp(&pid, executable, &actions, &attributes, argv, env ?? UnsafePointer(environ))
    }
    guard status == 0 else { throw PasteboardError.failed("cannot run \(executable): \(errnoText(status))") }
    return pid
  }
}

extension Optional where Wrapped == [UnsafeMutablePointer<CChar>?] {
  /// Calls `body` with a pointer to the array's elements, or nil.
  fileprivate func withOptionalPointer<R>(_ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>?) -> R) -> R {
    guard let array = self else { return body(nil) }
    return array.withUnsafeBufferPointer { body($0.baseAddress) }
  }
}
