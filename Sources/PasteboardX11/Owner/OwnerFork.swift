import CX11
#if canImport(Glibc)
  import Glibc
#endif
import PasteboardKit

/// The fast way to leave an owner in the background: own the selection
/// in the copying process, then fork, as xclip does.
///
/// Re-executing pb for the owner costs a second process start-up, which
/// alone is slower than a whole `xsel -bi`; forking a single-threaded
/// process costs a fraction of a millisecond. The parent owns and verifies
/// before forking, so its exit status is the truth, and after the fork it
/// never touches the X connection again (traffic from two processes on one
/// socket would corrupt it). When the process runs more than one thread
/// (a library user), or `PB_X11_SPAWN=exec`, `OwnerLauncher` re-executes
/// pb instead. So it does when the process holds much memory of its own
/// (`pb table` of a 1,000,000-row listing): a forked owner would keep all
/// of it for as long as it serves one row.
enum OwnerFork {
  /// Whether forking is safe and cheap: exactly one thread in this
  /// process, and little private memory in it.
  static var isAvailable: Bool {
    if environmentValue("PB_X11_SPAWN") == "exec" { return false }
    return isSingleThreaded && privateBytes() <= privateLimit
  }

  /// The most private (anonymous) memory a process may hold and still
  /// fork its owner: `pb copy` holds well under 1 MiB whatever it copies
  /// (the content is in a memory file, which the owner shares).
  static let privateLimit = 16 << 20

  /// Resident memory that is not shared with a file or a memory file
  /// (`/proc/self/statm`: resident minus shared); unknown counts as large.
  static func privateBytes() -> Int {
    guard let f = fopen("/proc/self/statm", "r") else { return Int.max }
    defer { fclose(f) }
    var buffer = [CChar](repeating: 0, count: 256)
    guard fgets(&buffer, Int32(buffer.count), f) != nil else { return Int.max }
    let fields = String(cString: buffer).split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { Int($0) }
    guard fields.count >= 3 else { return Int.max }
    return max(0, fields[1] - fields[2]) * Int(sysconf(Int32(_SC_PAGESIZE)))
  }

  private static var isSingleThreaded: Bool {
    guard let f = fopen("/proc/self/stat", "r") else { return false }
    defer { fclose(f) }
    var buffer = [CChar](repeating: 0, count: 1024)
    guard fgets(&buffer, Int32(buffer.count), f) != nil else { return false }
    let line = String(cString: buffer)
    // Field 20 (num_threads), counted after the ")" that ends the name.
    guard let close = line.lastIndex(of: ")") else { return false }
    let fields = line[line.index(after: close)...].split(separator: " ")
    return fields.count > 17 && fields[17] == "1"
  }

  /// Owns with `owner` (already acquired) from a forked child that serves
  /// until the end and exits; the parent returns at once.
  /// - Returns: the child's process id, for a long-running parent (the
  ///   clipboard manager) to reap.
  @discardableResult
  static func detach(_ owner: SelectionOwner) throws -> pid_t {
    let socket = owner.connection.fd
    // Hangup, interrupt and terminate stay blocked across the fork until
    // the child has its own dispositions: the caller's handlers must never
    // run in the owner, not even in its first microseconds.
    var stops = sigset_t()
    sigemptyset(&stops)
    for s in [SIGHUP, SIGINT, SIGTERM] { sigaddset(&stops, s) }
    var previous = sigset_t()
    sigprocmask(SIG_BLOCK, &stops, &previous)
    let pid = fork()
    if pid != 0 {
      let code = errno
      sigprocmask(SIG_SETMASK, &previous, nil)
      if pid < 0 {
        throw PasteboardError.failed("cannot start the background owner: \(errnoText(code))")
      }
      owner.connection.abandon()
      return pid
    }
    // The child: its own session, /dev/null for the standard streams, no
    // descriptor of the caller but the X connection, and cwd /.
    _ = setsid()
    let null = open("/dev/null", O_RDWR)
    if null >= 0 {
      // (The X socket itself is one of 0-2 when pb was started with a
      // standard stream closed; it stays.)
      for fd: Int32 in 0...2 where fd != socket { dup2(null, fd) }
      if null > 2 { close(null) }
    }
    closeAll(except: socket)
    OwnerLog.reopen()
    _ = chdir("/")
    signal(SIGHUP, SIG_IGN)
    signal(SIGPIPE, SIG_IGN)
    signal(SIGINT, SIG_DFL)
    signal(SIGTERM, SIG_DFL)
    StopSignals.install()
    var status: Int32 = 0
    do {
      try owner.serve()
    } catch {
      OwnerLog.note("stops: \(error)")
      status = 4
    }
    _exit(status)
  }

  /// Closes every descriptor from 3 up but `keep`.
  private static func closeAll(except keep: Int32) {
    if keep > 3 { _ = pb_close_range(3, UInt32(keep - 1)) }
    let from = max(3, keep + 1)
    if pb_close_from(from) != 0 {
      for fd in from..<1024 { close(fd) }
    }
  }
}
