#if canImport(Glibc)
  import Glibc
#endif
import PasteboardKit

/// The user's activities: every `*.activity` file in
/// `$XDG_CONFIG_HOME/pb/activities/` (default `~/.config/pb/activities/`),
/// in the order of their names.
///
/// A file that another user owns or that group or others may write is
/// refused (anyone who could change it could run commands as you), and so
/// is a file with a problem; each refusal is reported and the other
/// activities load all the same.
public enum ActivityLibrary {
  public struct Loaded {
    public var activities: [UserActivity] = []
    /// One line per problem: `FILE:LINE: reason`.
    public var problems: [String] = []
  }

  /// The folder activities are read from.
  public static func folder(_ folders: UserFolders) -> String { folders.configHome + "/pb/activities" }

  public static func load(from folder: String) -> Loaded {
    var loaded = Loaded()
    guard let handle = ByteString.withCString(folder, { opendir($0) }) else {
      if errno != ENOENT { loaded.problems.append("\(folder): cannot be read: \(errnoText())") }
      return loaded
    }
    var names: [String] = []
    while let entry = readdir(handle) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { ByteString.decode(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
      if name.hasSuffix(".activity") && !name.hasPrefix(".") { names.append(name) }
    }
    closedir(handle)
    var types = Set<String>()
    for name in names.sorted() {
      let path = folder + "/" + name
      switch read(path) {
      case .failure(let problems):
        loaded.problems += problems.problems
      case .success(let definition):
        guard types.insert(definition.type).inserted else {
          loaded.problems.append("\(path): the type \(definition.type) is already defined by an earlier file")
          continue
        }
        loaded.activities.append(UserActivity(definition))
      }
    }
    return loaded
  }

  static func read(_ path: String) -> Result<ActivityDefinition, ActivityFileProblems> {
    func refuse(_ reason: String) -> Result<ActivityDefinition, ActivityFileProblems> {
      .failure(ActivityFileProblems(problems: ["\(path): \(reason)"]))
    }
    let fd = ByteString.withCString(path) { open($0, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK) }
    guard fd >= 0 else { return refuse("cannot be read: \(errnoText())") }
    let file = Descriptor(fd)
    guard let st = try? file.status() else { return refuse("cannot be read: \(errnoText())") }
    guard st.st_mode & S_IFMT == S_IFREG else { return refuse("is not a regular file") }
    guard st.st_uid == geteuid() else { return refuse("belongs to uid \(st.st_uid), not to you; refused") }
    guard st.st_mode & 0o022 == 0 else {
      return refuse("may be written by group or others (mode \(String(st.st_mode & 0o777, radix: 8))); refused (chmod go-w it)")
    }
    guard st.st_size <= 64 * 1024, let bytes = try? file.readToEnd() else { return refuse("is larger than 64 KiB") }
    guard TypeDetection.looksLikeText(bytes) else { return refuse("is not UTF-8 text") }
    return ActivityFileParser.parse(String(decoding: bytes, as: UTF8.self), file: path)
  }
}
