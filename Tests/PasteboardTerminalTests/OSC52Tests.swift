import PasteboardKit
import XCTest

@testable import PasteboardTerminal

/// The OSC 52 sequences byte for byte, the answer parser on every kind of
/// answer, and strict base64. What real terminals make of the sequences is
/// tested end to end in PBCommandLineTests (tmux, xterm, screen).
final class OSC52Tests: XCTestCase {
  let esc: UInt8 = 0x1B

  func testTheSequenceForTheClipboardAndPrimary() {
    let text = Array("héllo\tworld\n".utf8)
    let b64 = Base64.encode(text)
    XCTAssertEqual(
      OSC52Sequence.setting([.clipboard], to: text, through: .none),
      [esc] + Array("]52;c;".utf8) + b64 + [0x07])
    XCTAssertEqual(
      OSC52Sequence.setting([.clipboard, .primary], to: text, through: .tmux),
      [esc] + Array("]52;c;".utf8) + b64 + [0x07] + [esc] + Array("]52;p;".utf8) + b64 + [0x07])
    XCTAssertEqual(OSC52Sequence.setting([.clipboard], to: [], through: .none), [esc] + Array("]52;c;".utf8) + [0x07])
  }

  func testScreenGetsPiecesThatJoinIntoTheSequence() {
    let text = [UInt8]((0..<300).map { UInt8($0 % 256) })
    let plain = OSC52Sequence.setting([.primary], to: text, through: .none)
    let wrapped = OSC52Sequence.setting([.primary], to: text, through: .screen)
    // Each piece is ESC P ... ESC \ with at most screenPiece bytes inside.
    var pieces: [[UInt8]] = []
    var i = 0
    while i < wrapped.count {
      XCTAssertEqual(Array(wrapped[i..<i + 2]), [esc, 0x50], "a piece starts with ESC P at \(i)")
      var j = i + 2
      while !(wrapped[j] == esc && wrapped[j + 1] == 0x5C) { j += 1 }
      pieces.append(Array(wrapped[(i + 2)..<j]))
      i = j + 2
    }
    XCTAssertTrue(pieces.allSatisfy { $0.count <= Multiplexer.screenPiece })
    XCTAssertEqual(pieces.count, (plain.count + Multiplexer.screenPiece - 1) / Multiplexer.screenPiece)
    XCTAssertEqual(Array(pieces.joined()), plain)
  }

  func testTheQuery() {
    XCTAssertEqual(OSC52Sequence.query(.clipboard, through: .none), [esc] + Array("]52;c;?".utf8) + [0x07])
    XCTAssertEqual(
      OSC52Sequence.query(.primary, through: .screen), [esc, 0x50, esc] + Array("]52;p;?".utf8) + [0x07, esc, 0x5C])
  }

  func testBoardsMapToSelections() throws {
    XCTAssertEqual(TerminalSelection(board: .general), .clipboard)
    XCTAssertEqual(TerminalSelection(board: .primary), .primary)
    XCTAssertEqual(TerminalSelection(board: .secondary), .secondary)
    XCTAssertNil(TerminalSelection(board: try BoardName("work")))
  }

  func parse(_ bytes: [UInt8], limit: Int = 1 << 20) -> OSC52Answer.Progress {
    var answer = OSC52Answer(limit: limit)
    for byte in bytes {
      let progress = answer.feed(byte)
      if progress != .waiting { return progress }
    }
    return .waiting
  }

  func testAnswersEndedEitherWayAndWhatComesBeforeThem() {
    let data = Array("aMOpbGxv".utf8)
    XCTAssertEqual(parse([esc] + Array("]52;c;".utf8) + data + [0x07]), .complete(data))
    XCTAssertEqual(parse([esc] + Array("]52;c;".utf8) + data + [esc, 0x5C]), .complete(data))
    // tmux answers with no selection letter.
    XCTAssertEqual(parse([esc] + Array("]52;;".utf8) + data + [0x07]), .complete(data))
    // Typed-ahead keys, another report, a false start, then the answer.
    XCTAssertEqual(
      parse(Array("ls".utf8) + [esc] + Array("[?64;1c".utf8) + [esc] + Array("]5x".utf8) + [esc] + Array("]52;c;".utf8) + data + [0x07]),
      .complete(data))
    XCTAssertEqual(parse([esc] + Array("]52;c;".utf8) + [0x07]), .complete([]))
  }

  func testInterruptsCutOffAndTooLongAnswers() {
    XCTAssertEqual(parse(Array("ab".utf8) + [0x03]), .interrupted(SIGINT))
    XCTAssertEqual(parse([0x1C]), .interrupted(SIGQUIT))
    XCTAssertEqual(parse([esc] + Array("]52;c;aGk".utf8) + [esc, 0x5B]), .cutOff)
    // Too long only once read to its end (nothing of it left on the terminal).
    let long = [esc] + Array("]52;c;".utf8) + [UInt8](repeating: 0x41, count: 9)
    XCTAssertEqual(parse(long, limit: 8), .waiting)
    XCTAssertEqual(parse(long + [0x07], limit: 8), .tooLong)
    XCTAssertEqual(parse(long + [esc, 0x5C], limit: 8), .tooLong)
    XCTAssertEqual(parse(long + [0x07], limit: 9), .complete([UInt8](repeating: 0x41, count: 9)))
    XCTAssertEqual(parse([esc] + Array("]52;c;aGk".utf8)), .waiting)
  }

  func testBase64RoundTripsAndRefusesWhatIsNotCanonical() {
    for n in 0..<70 {
      let bytes = [UInt8]((0..<n).map { UInt8(($0 * 37 + 11) % 256) })
      XCTAssertEqual(Base64.decode(Base64.encode(bytes)), bytes)
      XCTAssertEqual(Base64.encode(bytes).count, Base64.encodedCount(n))
    }
    XCTAssertEqual(Base64.encode(Array("hi!".utf8)), Array("aGkh".utf8))
    XCTAssertEqual(Base64.encode(Array("h".utf8)), Array("aA==".utf8))
    for bad in ["aGk", "aGk!", "aG k", "aA=A", "aA==aGkh", "aB==", "aGl=", "aGkh\n", "===="] {
      XCTAssertNil(Base64.decode(Array(bad.utf8)), bad)
    }
    XCTAssertEqual(Base64.decode([UInt8]()), [])
  }
}
