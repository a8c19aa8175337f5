import PasteboardConformance
import PasteboardKit
import XCTest

final class ConformanceTests: XCTestCase {
  func testMemoryBackendConforms() {
    BackendConformance.checkAll { MemoryBackend() }
  }

  func testFileBackendConforms() throws {
    let root = try TemporaryDirectory()
    var n = 0
    BackendConformance.checkAll {
      n += 1
      return FileBackend(location: StoreLocation(directory: root.path + "/store\(n)", source: "test"))
    }
  }
}
