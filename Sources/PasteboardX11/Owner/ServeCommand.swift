import CX11
#if canImport(Glibc)
  import Glibc
#endif
import PasteboardKit

/// The background owner's entry point: `pb __x11-serve …`, started by
/// `OwnerLauncher`.
public enum ServeCommand {
  /// Runs the owner when `arguments` (argv) name the hidden command, and
  /// returns its exit status; nil otherwise.
  public static func runIfRequested(_ arguments: [String]) -> Int32? {
    guard arguments.count > 1, arguments[1] == ServeRequest.command else { return nil }
    return run(arguments.dropFirst(2))
  }

  static func run(_ arguments: ArraySlice<String>) -> Int32 {
    // Hold nothing of the caller's: descriptors 0-2 are /dev/null already,
    // 3 is the content and 4 the status pipe; the rest are not ours.
    if pb_close_from(5) != 0 {
      for fd in 5..<Int32(1024) { close(fd) }
    }
    _ = chdir("/")
    _ = setsid()  // a no-op when posix_spawn already made a session
    signal(SIGHUP, SIG_IGN)
    signal(SIGPIPE, SIG_IGN)
    let status = Descriptor(ServeRequest.statusFD, owned: false)
    guard let request = ServeRequest(arguments: arguments) else {
      try? status.writeAll(Array(OwnerStatus.encode(.invalid("malformed arguments to the background owner")).utf8))
      return 2
    }
    let owner: SelectionOwner
    do {
      let connection = try XConnection(name: request.displayName)
      let content = try SharedContent(fd: ServeRequest.contentFD, slices: request.slices)
      close(ServeRequest.contentFD)  // the mapping stays
      owner = SelectionOwner(
        connection: connection, content: content, selections: request.selections.map { SelectionNames.selection($0, on: connection) },
        options: request.options, settings: X11Settings.fromEnvironment())
      StopSignals.install()
      try owner.acquire()
    } catch let error as PasteboardError {
      OwnerLog.note("cannot serve: \(error)")
      try? status.writeAll(Array(OwnerStatus.encode(error).utf8))
      return 1
    } catch {
      try? status.writeAll(Array(OwnerStatus.encode(.failed("\(error)")).utf8))
      return 7
    }
    try? status.writeAll(Array("ok\n".utf8))
    close(ServeRequest.statusFD)
    do {
      try owner.serve()
      return 0
    } catch {
      OwnerLog.note("stops: \(error)")
      return 4
    }
  }
}
