import XCTest

#if canImport(Glibc)
  import Glibc
#endif

/// A directory removed (with its contents) when the test ends.
final class TemporaryDirectory {
  let path: String

  init() throws {
    var template = Array("/tmp/pb-test-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { throw POSIXError(.EIO) }
    path = String(cString: made)
  }

  deinit {
    _ = system("rm -rf '\(path)'")
  }
}
