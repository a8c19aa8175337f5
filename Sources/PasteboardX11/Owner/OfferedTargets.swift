import CX11
import PasteboardKit

/// The data targets an owner offers and how each is answered: exactly
/// what TARGETS lists, nothing more.
///
/// Text is offered under `UTF8_STRING`, `text/plain;charset=utf-8`,
/// `text/plain`, `STRING` (converted to Latin-1, `?` for what Latin-1
/// cannot hold) and `TEXT` (answered as `STRING` when the text is ASCII,
/// else as `UTF8_STRING`). Other types are offered verbatim under their
/// MIME name, never also as text: a PNG is not a string.
final class OfferedTargets {
  struct Offer {
    let target: Atom
    let name: String
    let source: Source
    /// Whether handing it over counts as a paste (`--pastes N`).
    let isPaste: Bool
  }

  enum Source {
    case slice(Int)
    case latin1(Int)
    case text(Int)
    case literal([UInt8], type: Atom)
  }

  let offers: [Offer]
  private let content: SharedContent
  private let atoms: Atoms
  private var latin1Cache: [Int: UnsafeMutableRawBufferPointer] = [:]
  private var asciiCache: [Int: Bool] = [:]

  init(content: SharedContent, sensitive: Bool, connection: XConnection) {
    self.content = content
    atoms = connection.atoms
    var offers: [Offer] = []
    var seen = Set<Atom>()
    func add(_ target: Atom, _ name: String, _ source: Source, paste: Bool = true) {
      if seen.insert(target).inserted { offers.append(Offer(target: target, name: name, source: source, isPaste: paste)) }
    }
    for (i, slice) in content.slices.enumerated() {
      if MIMEType.isPlainText(slice.type) {
        add(atoms.utf8String, "UTF8_STRING", .slice(i))
        add(atoms.mimeUTF8Text, "text/plain;charset=utf-8", .slice(i))
        add(atoms.mimePlainText, "text/plain", .slice(i))
        add(atoms.string, "STRING", .latin1(i))
        add(atoms.text, "TEXT", .text(i))
      } else {
        add(connection.atom(slice.type), slice.type, .slice(i))
      }
    }
    if sensitive {
      add(atoms.passwordHint, "x-kde-passwordManagerHint", .literal(Array("secret".utf8), type: atoms.passwordHint), paste: false)
    }
    self.offers = offers
  }

  deinit { latin1Cache.values.forEach { $0.deallocate() } }

  func offer(for target: Atom) -> Offer? { offers.first { $0.target == target } }

  /// The reply's type and bytes for `offer`.
  func data(for offer: Offer) -> (type: Atom, bytes: UnsafeRawBufferPointer) {
    switch offer.source {
    case .slice(let i):
      // The reply's type names the target (UTF8_STRING, or the MIME type).
      return (offer.target, content.bytes(i))
    case .latin1(let i):
      return (atoms.string, latin1(i))
    case .text(let i):
      let bytes = content.bytes(i)
      if asciiCache[i] == nil { asciiCache[i] = bytes.allSatisfy { $0 < 0x80 } }
      return (asciiCache[i]! ? atoms.string : atoms.utf8String, bytes)
    case .literal(let bytes, let type):
      // Literals are tiny and live as long as the offers.
      let buffer = literalBuffer(bytes)
      return (type, buffer)
    }
  }

  private var literals: [UnsafeMutableRawBufferPointer] = []

  private func literalBuffer(_ bytes: [UInt8]) -> UnsafeRawBufferPointer {
    if let existing = literals.first(where: { Array($0) == bytes }) { return UnsafeRawBufferPointer(existing) }
    let b = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 1)
    b.copyBytes(from: bytes)
    let sized = UnsafeMutableRawBufferPointer(rebasing: b[0..<bytes.count])
    literals.append(sized)
    return UnsafeRawBufferPointer(sized)
  }

  private func latin1(_ i: Int) -> UnsafeRawBufferPointer {
    if let cached = latin1Cache[i] { return UnsafeRawBufferPointer(cached) }
    let converted = Latin1.fromUTF8(content.bytes(i))
    let b = UnsafeMutableRawBufferPointer.allocate(byteCount: max(converted.count, 1), alignment: 1)
    b.copyBytes(from: converted)
    let sized = UnsafeMutableRawBufferPointer(rebasing: b[0..<converted.count])
    latin1Cache[i] = sized
    return UnsafeRawBufferPointer(sized)
  }
}
