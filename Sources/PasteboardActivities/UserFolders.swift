#if canImport(Glibc)
  import Glibc
#endif
import PasteboardKit

/// The user's folders as the XDG base directory and user directory
/// specifications define them, read in process (no `xdg-user-dir` is
/// run): `XDG_PICTURES_DIR` and `XDG_DOCUMENTS_DIR` from
/// `$XDG_CONFIG_HOME/user-dirs.dirs` (a `"$HOME/…"` or absolute value;
/// anything else is ignored), else from the environment, else `$HOME`, as
/// `xdg-user-dir` answers; the data and config homes from
/// `XDG_DATA_HOME` and `XDG_CONFIG_HOME` when absolute, else under `$HOME`.
public struct UserFolders {
  public let home: String
  public let configHome: String
  public let dataHome: String
  private let userDirs: [String: String]

  public init(home: String, configHome: String, dataHome: String, userDirs: [String: String]) {
    self.home = home
    self.configHome = configHome
    self.dataHome = dataHome
    self.userDirs = userDirs
  }

  public static func fromEnvironment() -> UserFolders {
    let home = environmentValue("HOME") ?? "/"
    func absolute(_ name: String) -> String? { environmentValue(name).flatMap { $0.hasPrefix("/") ? $0 : nil } }
    let config = absolute("XDG_CONFIG_HOME") ?? home + "/.config"
    let data = absolute("XDG_DATA_HOME") ?? home + "/.local/share"
    var dirs = parse(userDirsFile: config + "/user-dirs.dirs", home: home)
    for key in ["PICTURES", "DOCUMENTS"] where dirs[key] == nil {
      if let value = absolute("XDG_\(key)_DIR") { dirs[key] = value }
    }
    return UserFolders(home: home, configHome: config, dataHome: data, userDirs: dirs)
  }

  /// The folder for pictures (`xdg-user-dir PICTURES`).
  public var pictures: String { userDirs["PICTURES"] ?? home }
  /// The folder for documents (`xdg-user-dir DOCUMENTS`).
  public var documents: String { userDirs["DOCUMENTS"] ?? home }

  /// Reads `XDG_NAME_DIR="VALUE"` lines; VALUE is `$HOME/...` or an
  /// absolute path, in double quotes, with `\` escaping the next character.
  static func parse(userDirsFile path: String, home: String) -> [String: String] {
    guard let bytes = try? Descriptor.open(path, O_RDONLY).readToEnd() else { return [:] }
    var result: [String: String] = [:]
    for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
      let text = line.drop(while: { $0 == " " || $0 == "\t" })
      guard text.hasPrefix("XDG_"), let eq = text.firstIndex(of: "="), text[..<eq].hasSuffix("_DIR") else { continue }
      let key = String(text[text.index(text.startIndex, offsetBy: 4)..<text.index(eq, offsetBy: -4)])
      var value = text[text.index(after: eq)...]
      guard value.first == "\"", let close = value.dropFirst().lastIndex(of: "\"") else { continue }
      value = value[value.index(after: value.startIndex)..<close]
      var unescaped = ""
      var escaping = false
      for c in value {
        if escaping {
          unescaped.append(c)
          escaping = false
        } else if c == "\\" {
          escaping = true
        } else {
          unescaped.append(c)
        }
      }
      if unescaped.hasPrefix("$HOME") {
        let rest = unescaped.dropFirst(5)
        guard rest.isEmpty || rest.hasPrefix("/") else { continue }
        result[key] = home + rest
      } else if unescaped.hasPrefix("/") {
        result[key] = unescaped
      }
    }
    return result
  }
}
