import PasteboardConformance
import PasteboardKit
import XCTest

@testable import PasteboardX11

/// The shared backend conformance suite, run against the X11 backend with
/// a fresh private display for every case.
final class X11ConformanceTests: X11TestCase {
  private var extraDisplays: [PrivateDisplay] = []

  override func tearDown() {
    for d in extraDisplays {
      for pid in Tools.owners(on: d) { kill(pid, SIGKILL) }
      d.stop()
    }
    extraDisplays = []
    super.tearDown()
  }

  func testBackendConformance() throws {
    BackendConformance.checkAll(
      // Clearing an X11 selection leaves it without an owner, and a board
      // without an owner has change count 0 (the count is derived from
      // the owner): the count cannot rise on clear, only on writes.
      skipping: [.countMonotonic]
    ) {
      let d = try PrivateDisplay()
      extraDisplays.append(d)
      let b = X11Backend(displayName: d.name, timeoutMilliseconds: 3000)
      b.ownerExecutable = Tools.pb
      return b
    }
  }

  /// What `countMonotonic` checks, minus the clear: each write raises it.
  func testCountRisesWithEveryWrite() throws {
    let b = backend()
    var last = try b.changeCount(of: .general)
    XCTAssertEqual(last, 0)
    for i in 0..<5 {
      try b.write([.text("\(i)")], to: [.general], options: .init())
      let now = try b.changeCount(of: .general)
      XCTAssertGreaterThan(now, last, "write \(i)")
      last = now
    }
  }
}
