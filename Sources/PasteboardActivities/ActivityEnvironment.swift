#if canImport(Glibc)
  import Glibc
#endif

import PasteboardKit

/// What the built-in activities may use beyond their items: the options
/// the user gave, the board to copy to, the user's folders, the programs
/// on PATH, the clock, and a way to ask the user a question. The command
/// line builds it; tests build their own.
public struct ActivityEnvironment {
  /// Where `pb.copy-to-pasteboard` writes.
  public var pasteboard: Pasteboard?
  /// `--name`: the folder `pb.export` makes.
  public var name: String?
  /// `--into`: the folder `pb.export` writes into, or the file `pb.mail`
  /// writes its message to.
  public var into: String?
  /// `--parts`: which items `pb.export` writes (kinds or 1-based numbers).
  public var parts: [String]?
  /// `--to`, `--subject`, `--from` for `pb.mail`.
  public var mailTo: [String] = []
  public var mailSubject: String?
  public var mailFrom: String?
  /// Asks the user for a line of text (`pb.export` asks for a name when
  /// none is given); nil when there is no terminal to ask on.
  public var ask: ((_ question: String) throws -> String?)?
  public var folders: UserFolders
  public var programs: ProgramSearch
  /// Milliseconds since the epoch.
  public var clock: () -> Int64 = WallClock.nowMilliseconds
  /// How long a program an activity runs may take (print, open, mail).
  public var timeoutMilliseconds: Int64 = 60_000

  public init(folders: UserFolders = .fromEnvironment(), programs: ProgramSearch = .fromEnvironment()) {
    self.folders = folders
    self.programs = programs
  }
}

/// Programs on PATH, found without running a shell.
public struct ProgramSearch {
  public let path: [String]

  public init(path: [String]) { self.path = path }

  public static func fromEnvironment() -> ProgramSearch {
    ProgramSearch(path: (environmentValue("PATH") ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":").map(String.init))
  }

  /// The full path of the executable `name`, or nil.
  public func find(_ name: String) -> String? {
    for dir in path where !dir.isEmpty {
      let candidate = dir + "/" + name
      if ByteString.withCString(candidate, { access($0, X_OK) }) == 0 {
        var st = stat()
        if stat(candidate, &st) == 0 && st.st_mode & S_IFMT == S_IFREG { return candidate }
      }
    }
    return nil
  }
}
