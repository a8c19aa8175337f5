import PasteboardKit

#if canImport(Glibc)
  import Glibc
#endif

/// A small file that holds a secret (a URL with a password, the key for
/// sensitive content) and so must be readable by its owner alone.
enum PrivateFile {
  /// The file's bytes.
  /// - Throws: `.unavailable` naming `variable` when the file cannot be
  ///   read or others may read it (mode 0600 or stricter is required).
  static func read(_ path: String, variable: String) throws -> [UInt8] {
    let file: Descriptor
    do {
      file = try Descriptor.open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY)
    } catch {
      throw PasteboardError.unavailable("cannot read \(path) (\(variable)): \(errnoText())")
    }
    let st = try file.status()
    if st.st_mode & 0o077 != 0 {
      throw PasteboardError.unavailable(
        "\(path) (\(variable)) may be read by others (mode \(String(st.st_mode & 0o777, radix: 8))); it must be 0600 or stricter (chmod 600 it)")
    }
    return try file.readToEnd()
  }
}
