import Foundation
import XCTest

#if canImport(Glibc)
  import Glibc
#endif

/// A private Xvfb for the tests: started with `-displayfd` so it picks a
/// free display (never a fixed one, never the user's DISPLAY), stopped by
/// its process id.
final class PrivateDisplay {
  let pid: pid_t
  let name: String
  private var stopped = false

  /// The programs the tests need, with the command that installs them.
  static let requiredTools = ["Xvfb", "xclip", "xsel"]
  static let installHint = "install them with: apt-get install xvfb xclip xsel"

  /// Fails (never skips) when a required tool is missing.
  static func checkTools(file: StaticString = #filePath, line: UInt = #line) -> Bool {
    let missing = requiredTools.filter { Tools.path(of: $0) == nil }
    if !missing.isEmpty {
      XCTFail("the X11 tests need \(missing.joined(separator: ", ")): \(installHint)", file: file, line: line)
      return false
    }
    return true
  }

  /// - Parameters:
  ///   - resets: whether the server resets when its last client leaves
  ///     (Xvfb's default; the tests' displays normally do not).
  ///   - arguments: more options for Xvfb (`-extension XFIXES` disables
  ///     that extension).
  init(resets: Bool = false, arguments: [String] = []) throws {
    var fds: [Int32] = [-1, -1]
    guard pipe(&fds) == 0 else { throw TestFailure("pipe failed") }
    let xvfb = Tools.path(of: "Xvfb") ?? "/usr/bin/Xvfb"
    let argv = [xvfb, "-displayfd", String(fds[1]), "-nolisten", "tcp", "-screen", "0", "640x480x24"] + (resets ? [] : ["-noreset"]) + arguments
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addclose(&actions, fds[0])
    var cArgs = argv.map { strdup($0) } + [nil]
    defer { cArgs.forEach { free($0) } }
    var child: pid_t = 0
    let rc = posix_spawn(&child, xvfb, &actions, nil, &cArgs, environ)
    close(fds[1])
    defer { close(fds[0]) }
    guard rc == 0 else { throw TestFailure("cannot start Xvfb: \(String(cString: strerror(rc)))") }
    pid = child
    // Xvfb writes the display number, then a newline, once it listens.
    var text = ""
    var p = pollfd(fd: fds[0], events: Int16(POLLIN), revents: 0)
    let deadline = Tools.now() + 10_000
    while !text.hasSuffix("\n") {
      guard Tools.now() < deadline, poll(&p, 1, 1000) >= 0 else { break }
      var b: UInt8 = 0
      if read(fds[0], &b, 1) != 1 { if p.revents & Int16(POLLHUP) != 0 { break } else { continue } }
      text.append(Character(UnicodeScalar(b)))
    }
    guard let n = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
      kill(child, SIGKILL)
      var st: Int32 = 0
      waitpid(child, &st, 0)
      throw TestFailure("Xvfb did not report a display number")
    }
    name = ":\(n)"
  }

  /// Stops the server (SIGTERM, then SIGKILL) and reaps it.
  func stop(signal sig: Int32 = SIGTERM) {
    guard !stopped else { return }
    stopped = true
    kill(pid, sig)
    var st: Int32 = 0
    for _ in 0..<200 {
      if waitpid(pid, &st, WNOHANG) == pid { return }
      usleep(10_000)
    }
    kill(pid, SIGKILL)
    waitpid(pid, &st, 0)
  }

  deinit { stop() }
}

struct TestFailure: Error, CustomStringConvertible {
  let description: String
  init(_ d: String) { description = d }
}
