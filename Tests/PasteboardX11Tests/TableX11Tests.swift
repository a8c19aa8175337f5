import XCTest

/// `pb table` on the X11 backend: a row copied or cut from a listing or a
/// file is served to xclip and to pb, and paste takes an X11 owner's text
/// (xclip's) into a file's table; byte for byte.
final class TableX11Tests: X11TestCase {
  /// A listing with a tab, UTF-8, a CRLF row and no final newline.
  let listing = Array("one\ntwo\t日本 ✓\nthree\r\nfour".utf8)

  func testACopiedRowIsServedToXclipAndToPb() throws {
    let file = Tools.file(listing)
    let r = try sh("$PB table --row 2 --action copy < \(file)")
    XCTAssertEqual(r.status, 0, r.stderr)
    XCTAssertEqual(r.stdout, [])
    XCTAssertEqual(Tools.owners(on: display).count, 1, "a pb owner serves the row")
    XCTAssertEqual(try sh("xclip -selection clipboard -o").stdout, Array("two\t日本 ✓".utf8))
    XCTAssertEqual(try sh("$PB paste").stdout, Array("two\t日本 ✓".utf8))
    // Several rows: joined by newlines, without the CR of a CRLF row and
    // with no newline at the end.
    XCTAssertEqual(try sh("$PB table --row 1,3-4 --action copy < \(file)").status, 0)
    XCTAssertEqual(try sh("xclip -selection clipboard -o").stdout, Array("one\nthree\nfour".utf8))
    XCTAssertEqual(try sh("$PB paste").stdout, Array("one\nthree\nfour".utf8))
    XCTAssertEqual(Tools.owners(on: display).count, 1, "the new copy replaced the old owner")
    XCTAssertEqual(Tools.contents(of: file).utf8.count, listing.count)
  }

  func testACutRowGoesToThePrimarySelectionAndLeavesTheFile() throws {
    let file = Tools.file(listing)
    let r = try sh("$PB table -b primary \(file) --row 2 --action cut")
    XCTAssertEqual(r.status, 0, r.stderr)
    XCTAssertEqual(try sh("xclip -selection primary -o").stdout, Array("two\t日本 ✓".utf8))
    XCTAssertEqual(try sh("$PB paste -b primary").stdout, Array("two\t日本 ✓".utf8))
    XCTAssertEqual(FileManager.default.contents(atPath: file).map { [UInt8]($0) }, Array("one\nthree\r\nfour".utf8))
    XCTAssertNil(try owner(of: "CLIPBOARD"), "only primary was written")
  }

  func testPasteTakesAnXclipOwnersTextIntoAFilesTable() throws {
    try peerCopies("printf 'x1\\n日本\\n' | xclip -selection clipboard -i >/dev/null 2>&1")
    let file = Tools.file(Array("first\nsecond".utf8))
    XCTAssertEqual(try sh("$PB table \(file) --actions 1").text, "copy\ncut\npaste\ndelete\nselect\nselect-all\nshare\n")
    let r = try sh("$PB table \(file) --row 2 --action paste")
    XCTAssertEqual(r.status, 0, r.stderr)
    // After the last row, which had no newline: the file still ends without one.
    XCTAssertEqual(FileManager.default.contents(atPath: file).map { [UInt8]($0) }, Array("first\nsecond\nx1\n日本".utf8))
    // Into a listing made editable with -o, whose rows end in CRLF.
    let out = "\(Tools.scratch)/out-\(UUID().uuidString)"
    let listing = Tools.file(Array("a\r\nb\r\n".utf8))
    XCTAssertEqual(try sh("$PB table -o \(out) --row 1 --action paste < \(listing)").status, 0)
    XCTAssertEqual(FileManager.default.contents(atPath: out).map { [UInt8]($0) }, Array("a\r\nx1\r\n日本\r\nb\r\n".utf8))
    XCTAssertEqual(try sh("xclip -selection clipboard -o").stdout, Array("x1\n日本\n".utf8), "paste left the board alone")
  }

  func testPasteIsDeniedWhenNoProgramOwnsTheClipboard() throws {
    XCTAssertNil(try owner(of: "CLIPBOARD"))
    let file = Tools.file(Array("first\nsecond\n".utf8))
    XCTAssertEqual(try sh("$PB table \(file) --actions 1").text, "copy\ncut\ndelete\nselect\nselect-all\nshare\n")
    let r = try sh("$PB table \(file) --row 1 --action paste")
    XCTAssertEqual(r.status, 3, r.stderr)
    XCTAssertTrue(r.stderr.hasPrefix("pb: "), r.stderr)
    XCTAssertEqual(FileManager.default.contents(atPath: file).map { [UInt8]($0) }, Array("first\nsecond\n".utf8))
  }

  /// The owner left behind by a copy from a large table serves one row: it
  /// must not keep the table's memory (a forked owner would keep it all).
  func testTheOwnerOfARowFromALargeListingHoldsLittleMemory() throws {
    var big: [UInt8] = []
    big.reserveCapacity(24 << 20)
    for n in 0..<600_000 { big += Array("-rw-r--r-- 1 user group 4096 row \(n)\n".utf8) }
    let file = Tools.file(big)
    let r = try sh("$PB table \(file) --row 500000 --action copy")
    XCTAssertEqual(r.status, 0, r.stderr)
    XCTAssertEqual(try sh("xclip -selection clipboard -o").text, "-rw-r--r-- 1 user group 4096 row 499999")
    let owners = Tools.owners(on: display)
    XCTAssertEqual(owners.count, 1)
    for pid in owners {
      let rss = Tools.contents(of: "/proc/\(pid)/status").split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
      let kib = rss.flatMap { Int($0.dropFirst(6).trimmingCharacters(in: .whitespaces).dropLast(3)) } ?? Int.max
      XCTAssertLessThan(kib, 16 * 1024, "the owner of one row holds \(kib) KiB (the listing is \(big.count >> 10) KiB)")
    }
  }
}
