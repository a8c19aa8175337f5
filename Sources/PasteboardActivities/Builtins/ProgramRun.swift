#if canImport(Glibc)
  import Glibc
#endif

import PasteboardKit

/// Runs one of the system programs an activity hands its items to (`lp`,
/// `xdg-open`, `sendmail`): from an argument vector, with its standard
/// error collected for the message when it fails.
enum ProgramRun {
  /// Runs `arguments` with `input` on its standard input and waits up to
  /// `timeout` ms; a failure names `what` and quotes the program's first
  /// line of error output.
  /// - Parameters:
  ///   - leavesRunning: a program still running at the deadline is left
  ///     to run (a viewer `xdg-open` started) instead of ended.
  ///   - explain: what a failing status means, for the message.
  /// - Returns: what the program wrote to its standard output.
  @discardableResult
  static func run(
    _ arguments: [String], input: [UInt8]? = nil, timeout: Int64, what: String, leavesRunning: Bool = false,
    explain: (ChildProcess.Termination) -> String? = { _ in nil }
  ) throws -> [UInt8] {
    let errors = try TemporaryStream()
    let output = try TemporaryStream()
    let child = try ChildProcess(
      arguments, input: input == nil ? .null : .pipe, output: .descriptor(output.descriptor),
      error: .descriptor(errors.descriptor))
    let deadline = WallClock.monotonicMilliseconds() + timeout
    if let input {
      do {
        try child.send(input, until: deadline)
      } catch {
        _ = try? child.wait(until: WallClock.monotonicMilliseconds())  // ends its process group
        throw PasteboardError.failed("\(what): \(arguments[0]) did not read its input within \(timeout / 1000) s and was ended")
      }
    }
    child.closeInput()
    let ended: ChildProcess.Termination
    if leavesRunning {
      guard let done = child.exit(before: deadline) else { return [] }
      ended = done
    } else {
      do {
        ended = try child.wait(until: deadline)
      } catch {
        throw PasteboardError.failed("\(what): \(arguments[0]) did not finish within \(timeout / 1000) s and was ended")
      }
    }
    guard ended.succeeded else {
      let message = errors.firstLine().map { ": \($0)" } ?? ""
      let meaning = explain(ended).map { "\($0), " } ?? ""
      throw PasteboardError.failed("\(what): \(arguments[0]) failed (\(meaning)\(ended))\(message)")
    }
    return output.contents()
  }
}

extension ProgramRun {
  /// `path` made absolute against the working directory, for a program
  /// that runs elsewhere (programs are started in `/`); a leading `./`
  /// is dropped.
  static func absolutePath(_ path: String) -> String {
    if path.hasPrefix("/") { return path }
    let cwd = currentDirectory()
    var rest = Substring(path)
    while rest.hasPrefix("./") { rest = rest.dropFirst(2).drop { $0 == "/" } }
    return (cwd == "/" ? "" : cwd) + "/" + rest
  }
}

/// An unnamed temporary file: somewhere for a program's error output that
/// leaves nothing behind and never fills a pipe nobody reads.
final class TemporaryStream {
  let descriptor: Descriptor

  init() throws {
    let file = try TemporaryFile(in: environmentValue("TMPDIR") ?? "/tmp")
    descriptor = try Descriptor.open(file.path, O_RDWR)
    file.discard()  // unlinked; the descriptor keeps it
  }

  /// Everything written to it (at most 1 MiB).
  func contents() -> [UInt8] {
    let size = Int((try? descriptor.status().st_size) ?? 0)
    return (try? descriptor.read(count: min(size, 1 << 20), at: 0)) ?? []
  }

  /// The first non-empty line written to it, if any.
  func firstLine() -> String? {
    guard let bytes = try? descriptor.read(count: min(4096, Int((try? descriptor.status().st_size) ?? 0)), at: 0)
    else { return nil }
    return String(decoding: bytes, as: UTF8.self).split(separator: "\n").first.map(String.init)
  }
}
