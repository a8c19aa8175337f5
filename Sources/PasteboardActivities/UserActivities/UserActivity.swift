#if canImport(Glibc)
  import Glibc
#endif
import PasteboardKit

/// An activity a user defined in a file (pb-activity(5)): a command run
/// from its argument vector, never through a shell, with the items on its
/// standard input or in private temporary files, a time limit, and its
/// standard output as the returned item (or discarded).
///
/// The command gets `PB_ACTIVITY_TYPE`, `PB_ITEM_COUNT` and
/// `PB_ITEM_TYPES` (comma-separated) in its environment, and runs in pb's
/// working directory. Its standard error is collected: when it fails, the
/// first line is quoted in pb's one message; when it succeeds, it is
/// passed on to pb's standard error. Temporary files are mode 0600 in a
/// directory of their own (mode 0700, under `$XDG_RUNTIME_DIR` when there
/// is one, else `$TMPDIR` or /tmp), removed when the command ends, is
/// ended at its time limit, or pb is interrupted (which also ends the
/// command's process group).
public final class UserActivity: Activity {
  public let definition: ActivityDefinition
  private var items: [ActivityItem] = []

  public init(_ definition: ActivityDefinition) { self.definition = definition }

  public var activityType: String { definition.type }
  public var title: String { definition.title }
  public var category: ActivityCategory { definition.category }

  public func canPerform(with items: [ActivityItem]) -> Bool {
    guard items.count >= definition.minimumItems, items.count <= (definition.maximumItems ?? Int.max) else { return false }
    return items.allSatisfy { item in definition.accepts.contains { item.matches($0) } }
  }

  public func prepare(with items: [ActivityItem]) throws { self.items = items }

  public func perform() throws -> [ActivityItem] {
    let folder = definition.input == .files ? try ScratchDirectory(in: SensitiveRuntime.directory() ?? environmentValue("TMPDIR") ?? "/tmp") : nil
    defer { folder?.remove() }
    var paths: [String] = []
    if let folder {
      for (i, item) in items.enumerated() {
        paths.append(try folder.write(item.payload, as: "item-\(i + 1)\(UserActivity.suffix(for: item))"))
      }
    }
    let arguments = UserActivity.substitute(definition.arguments, files: paths)
    let output = definition.output == .items ? try TemporaryStream() : nil
    let errors = try TemporaryStream()
    let child = try ChildProcess(
      arguments,
      environment: environmentStrings(setting: [
        "PB_ACTIVITY_TYPE": definition.type, "PB_ITEM_COUNT": String(items.count),
        "PB_ITEM_TYPES": items.map(\.type).joined(separator: ","),
      ]),
      directory: UserActivity.workingDirectory(),
      input: definition.input == .stdin ? .pipe : .null,
      output: output.map { .descriptor($0.descriptor) } ?? .null, error: .descriptor(errors.descriptor))
    let deadline = WallClock.monotonicMilliseconds() + definition.timeoutMilliseconds
    let ended: ChildProcess.Termination
    do {
      if definition.input == .stdin {
        for item in items {
          guard try child.send(try item.bytes(), until: deadline) else { break }
        }
      }
      ended = try child.wait(until: deadline)
    } catch PasteboardError.timedOut {
      _ = try? child.wait(until: WallClock.monotonicMilliseconds())
      throw PasteboardError.failed(
        "\(definition.title) (\(definition.type)) did not finish within \(describe(definition.timeoutMilliseconds)); its process group was ended")
    }
    guard ended.succeeded else {
      let message = errors.firstLine().map { ": " + $0 } ?? ""
      throw PasteboardError.failed("\(definition.title) (\(definition.type)) failed: \(arguments[0]) ended with \(ended)\(message)")
    }
    // A program that succeeded may still have warned: its words go to
    // pb's standard error as it wrote them.
    let warnings = errors.contents()
    if !warnings.isEmpty { try? Descriptor(STDERR_FILENO, owned: false).writeAll(warnings) }
    guard let output else { return [] }
    let bytes = output.contents()
    return bytes.isEmpty ? [] : [ActivityItem(kind: MIMEType.isText(definition.outputType) ? .text : .data, type: definition.outputType, payload: .bytes(bytes))]
  }

  /// `{files}` as a whole argument becomes every file, one argument each;
  /// `{file}` within an argument becomes the first file; with files and no
  /// placeholder, the files go at the end. Nothing else is touched: an
  /// argument reaches the program exactly as written.
  static func substitute(_ arguments: [String], files: [String]) -> [String] {
    var result: [String] = []
    var placed = false
    for argument in arguments {
      if argument == "{files}" {
        result += files
        placed = true
      } else if argument.contains("{file}") {
        result.append(argument.replacing("{file}", with: files.first ?? ""))
        placed = true
      } else {
        result.append(argument)
      }
    }
    if !placed && !files.isEmpty && result.count > 0 { result += files }
    return result
  }

  static func suffix(for item: ActivityItem) -> String {
    if let path = item.path, let last = path.split(separator: "/").last, let dot = last.lastIndex(of: "."), dot != last.startIndex {
      return String(last[dot...])
    }
    return TypeDetection.fileExtension(for: item.type).map { "." + $0 } ?? ""
  }

  /// The command runs where pb was started, as a command typed there would.
  static func workingDirectory() -> String {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    guard getcwd(&buffer, buffer.count) != nil else { return "/" }
    return ByteString.decode(cString: buffer)
  }

  private func describe(_ ms: Int64) -> String { ms % 1000 == 0 ? "\(ms / 1000) s" : "\(ms) ms" }
}

/// `$XDG_RUNTIME_DIR` when it is an absolute path.
enum SensitiveRuntime {
  static func directory() -> String? {
    guard let dir = environmentValue("XDG_RUNTIME_DIR"), dir.hasPrefix("/"), !ByteString.holdsRawBytes(dir) else { return nil }
    return dir
  }
}

extension String {
  /// The string with every `pattern` replaced by `replacement`.
  fileprivate func replacing(_ pattern: String, with replacement: String) -> String {
    var out = ""
    var rest = Substring(self)
    while let range = rest.range(of: pattern) {
      out += rest[..<range.lowerBound] + replacement
      rest = rest[range.upperBound...]
    }
    return out + rest
  }
}

extension Substring {
  /// The first range of `pattern`, compared by characters.
  fileprivate func range(of pattern: String) -> Range<Index>? {
    guard !pattern.isEmpty else { return nil }
    var i = startIndex
    while i < endIndex {
      if self[i...].hasPrefix(pattern) { return i..<index(i, offsetBy: pattern.count) }
      i = index(after: i)
    }
    return nil
  }
}
