import CSystem

#if canImport(Glibc)
  import Glibc
#endif

/// A program pb runs in the foreground and waits for: started from an
/// argument vector with `posix_spawn` (never through a shell), as the
/// leader of a process group of its own, and given a deadline after which
/// the whole group is ended.
///
/// The wait is on a pidfd, so it costs no polling and no SIGCHLD handler;
/// a deadline ends the group with SIGTERM, then SIGKILL after a grace
/// period, so grandchildren that the program started go too. If pb itself
/// is interrupted meanwhile, `SignalCleanup` ends the group.
public final class ChildProcess {
  /// Where one of the child's standard streams goes.
  public enum Stream {
    /// `/dev/null`.
    case null
    /// This process's own descriptor of the same number.
    case inherited
    /// A descriptor of this process (a file, a pipe, a terminal).
    case descriptor(Descriptor)
    /// A new pipe whose other end this process holds (`input`, `output`).
    case pipe
  }

  /// How the program ended.
  public enum Termination: Equatable, CustomStringConvertible {
    case exited(Int32)
    case signaled(Int32)

    public var succeeded: Bool { self == .exited(0) }

    public var description: String {
      switch self {
      case .exited(let code): return "exit status \(code)"
      case .signaled(let signal): return "killed by signal \(signal)"
      }
    }
  }

  public let pid: pid_t
  /// The program's name, for messages.
  public let program: String
  /// The write end of the child's standard input, for `.pipe`.
  public private(set) var input: Descriptor?
  /// The read end of the child's standard output, for `.pipe`.
  public let output: Descriptor?
  private let handle: Descriptor
  private var termination: Termination?

  /// Starts `arguments[0]` (searched on PATH when it has no slash).
  ///
  /// - Parameters:
  ///   - environment: `NAME=value` strings; nil passes this process's.
  ///   - directory: the child's working directory.
  /// - Throws: `.failed` naming the program when it cannot be started
  ///   (not found, not executable).
  public init(
    _ arguments: [String], environment: [String]? = nil, directory: String = "/",
    input stdin: Stream = .null, output stdout: Stream = .inherited, error stderr: Stream = .inherited
  ) throws {
    guard let program = arguments.first, !program.isEmpty else {
      throw PasteboardError.invalid("no program to run")
    }
    self.program = program
    var setup = SpawnSetup()
    setup.grouping = .newGroup
    setup.directory = directory
    var keep: [Descriptor] = []
    var inputEnd: Descriptor?
    var outputEnd: Descriptor?
    for (target, stream) in [(STDIN_FILENO, stdin), (STDOUT_FILENO, stdout), (STDERR_FILENO, stderr)] {
      switch stream {
      case .null:
        setup.opened.append((target, "/dev/null", target == STDIN_FILENO ? O_RDONLY : O_WRONLY))
      case .inherited:
        continue
      case .descriptor(let d):
        // Raised above the standard numbers so that no dup2 overwrites
        // another's source.
        let high = try ChildProcess.raised(d.rawValue)
        keep.append(high)
        setup.descriptors.append((high.rawValue, target))
      case .pipe:
        let (read, write) = try ChildProcess.makePipe()
        let childEnd = target == STDIN_FILENO ? read : write
        keep.append(childEnd)
        setup.descriptors.append((childEnd.rawValue, target))
        if target == STDIN_FILENO { inputEnd = write } else { outputEnd = read }
      }
    }
    pid = try setup.spawn(program, arguments: arguments, environment: environment)
    input = inputEnd
    output = outputEnd
    // The child is not reaped before this, so its pid cannot be reused.
    let fd = pidfd_open(pid, 0)
    guard fd >= 0 else {
      let code = errno
      kill(-pid, SIGKILL)
      var status: Int32 = 0
      _ = waitpid(pid, &status, 0)
      throw PasteboardError.failed("cannot watch \(program): \(errnoText(code))")
    }
    handle = Descriptor(fd)
    SignalCleanup.register(group: pid)
    _ = keep  // the child's ends are closed here, when `keep` goes
  }

  /// Work that must go on while pb waits for the child, as a clipboard
  /// manager's answers must: whenever `descriptor` is readable during
  /// `send` or `wait`, `handle` runs (and the wait goes on); it returns
  /// false to stop (its descriptor broke), and the wait goes on without it.
  public var meanwhile: (descriptor: Int32, handle: () -> Bool)?

  /// Closes the child's standard input (end of file for it).
  public func closeInput() { input = nil }

  /// Writes `bytes` to the child's standard input, giving up at
  /// `deadline` (monotonic ms). A child that exits without reading all of
  /// it is not an error of the write: its status tells.
  /// - Returns: false when the child stopped reading (it exited or closed
  ///   its input) before it had everything.
  /// - Throws: `.timedOut` at the deadline.
  @discardableResult
  public func send(_ bytes: [UInt8], until deadline: Int64?) throws -> Bool {
    guard let input else { return false }
    let flags = fcntl(input.rawValue, F_GETFL)
    _ = fcntl(input.rawValue, F_SETFL, flags | O_NONBLOCK)
    defer { _ = fcntl(input.rawValue, F_SETFL, flags) }
    // A reader that goes away must not kill pb with SIGPIPE.
    let previous = signal(SIGPIPE, SIG_IGN)
    defer { signal(SIGPIPE, previous) }
    var done = 0
    while done < bytes.count {
      let n = bytes.withUnsafeBytes { write(input.rawValue, $0.baseAddress! + done, $0.count - done) }
      if n > 0 {
        done += n
        continue
      }
      if n < 0 && errno == EPIPE { return false }
      if n < 0 && errno != EAGAIN && errno != EINTR { throw systemFailure("write to", program) }
      var fds = [
        pollfd(fd: input.rawValue, events: Int16(POLLOUT), revents: 0),
        pollfd(fd: handle.rawValue, events: Int16(POLLIN), revents: 0),
      ] + meanwhileEntry()
      let ready = poll(&fds, nfds_t(fds.count), ChildProcess.timeout(until: deadline))
      if ready == 0 { throw PasteboardError.timedOut("\(program) did not read its input in time") }
      if serveMeanwhile(fds) { continue }
      if fds[1].revents != 0 && fds[0].revents & Int16(POLLOUT) == 0 { return false }
    }
    return true
  }

  /// Waits for the child to end, at most until `deadline` (monotonic ms;
  /// nil: no limit). At the deadline its process group gets SIGTERM, and
  /// SIGKILL `graceMilliseconds` later if anything of it is left.
  /// - Throws: `.timedOut` after ending the group.
  public func wait(until deadline: Int64?, graceMilliseconds: Int64 = 2000) throws -> Termination {
    if let termination { return termination }
    closeInput()
    if awaitExit(until: deadline) { return reap() }
    kill(-pid, SIGTERM)
    if !awaitExit(until: WallClock.monotonicMilliseconds() + graceMilliseconds) { kill(-pid, SIGKILL) }
    kill(-pid, SIGKILL)  // whatever of the group outlived its leader
    _ = reap()
    throw PasteboardError.timedOut("\(program) did not finish in time; its process group was ended")
  }

  /// How the child ended, if it ends before `deadline`; nil when it is
  /// still running then (it is left running: a program that opens a
  /// window may stay as long as the window does).
  public func exit(before deadline: Int64?) -> Termination? {
    if let termination { return termination }
    return awaitExit(until: deadline) ? reap() : nil
  }

  /// Whether the child exited before `deadline`.
  private func awaitExit(until deadline: Int64?) -> Bool {
    while true {
      var fds = [pollfd(fd: handle.rawValue, events: Int16(POLLIN), revents: 0)] + meanwhileEntry()
      let n = poll(&fds, nfds_t(fds.count), ChildProcess.timeout(until: deadline))
      if n > 0 {
        if fds[0].revents != 0 { return true }
        _ = serveMeanwhile(fds)
        continue
      }
      if n == 0 { return false }
      if errno != EINTR { return false }
    }
  }

  /// The poll entry of `meanwhile`'s descriptor, if there is one (last).
  private func meanwhileEntry() -> [pollfd] {
    meanwhile.map { [pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0)] } ?? []
  }

  /// Runs `meanwhile` when its entry (the last of `fds`) is readable.
  private func serveMeanwhile(_ fds: [pollfd]) -> Bool {
    guard let meanwhile, let last = fds.last, last.fd == meanwhile.descriptor, last.revents != 0 else { return false }
    if !meanwhile.handle() { self.meanwhile = nil }
    return true
  }

  private func reap() -> Termination {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import.
    let result: Termination = (status & 0x7F) == 0 ? .exited((status >> 8) & 0xFF) : .signaled(status & 0x7F)
    termination = result
    SignalCleanup.unregister(group: pid)
    return result
  }

  private static func timeout(until deadline: Int64?) -> Int32 {
    guard let deadline else { return -1 }
    return Int32(max(0, min(deadline - WallClock.monotonicMilliseconds(), 3_600_000)))
  }

  private static func makePipe() throws -> (read: Descriptor, write: Descriptor) {
    var fds: [Int32] = [-1, -1]
    guard pipe2(&fds, O_CLOEXEC) == 0 else { throw systemFailure("create a pipe") }
    return (Descriptor(fds[0]), Descriptor(fds[1]))
  }

  private static func raised(_ fd: Int32) throws -> Descriptor {
    let high = fcntl(fd, F_DUPFD_CLOEXEC, 10)
    guard high >= 0 else { throw systemFailure("duplicate a descriptor") }
    return Descriptor(high)
  }
}
