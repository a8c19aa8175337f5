import CX11
import PasteboardKit

/// What a selection's owner offers and the board's change count, learnt
/// without transferring any content: a read, a watch and the clipboard
/// manager all start here, so they agree on the count and on what is
/// sensitive.
struct OwnerInspection {
  let owner: Window
  /// The owner's targets, in its order (protocol targets included).
  let offered: [(atom: Atom, name: String)]
  /// See `X11Backend` ("Change count on X11").
  let changeCount: UInt64
  /// The owner offers `x-kde-passwordManagerHint` (a password manager's
  /// secret, or pb's `--sensitive`): no history, no clipboard manager.
  let sensitive: Bool

  var targetNames: [String] { offered.map(\.name) }

  /// Asks the owner of `selection` for its TARGETS (and TIMESTAMP when it
  /// offers it and is not a pb owner); nil when nobody owns it.
  static func inspect(_ selection: Atom, with r: SelectionRequestor) throws -> OwnerInspection? {
    let c = r.connection
    // TARGETS is asked for first and the owner looked up while the owner
    // answers: one round trip instead of two.
    r.request(selection, to: c.atoms.targets, property: c.atoms.targetsProperty)
    guard let owner = r.owner(of: selection) else {
      r.discardAnswer()
      return nil
    }
    // A pb owner publishes its TIMESTAMP on its window: asked of the
    // server while the owner answers TARGETS.
    let published = publishedTimestamp(of: owner, on: c)
    let offered = try targets(r, selection)
    let names = Set(offered.map(\.name))
    var stamp = published
    if stamp == nil, names.contains("TIMESTAMP") { stamp = try? timestamp(r, selection) }
    return OwnerInspection(
      owner: owner, offered: offered, changeCount: changeCount(owner: owner, timestamp: stamp),
      sensitive: names.contains("x-kde-passwordManagerHint"))
  }

  /// The owner's TIMESTAMP in the high 32 bits, its window in the low 32.
  static func changeCount(owner: Window, timestamp: Time?) -> UInt64 {
    UInt64(owner & 0xFFFF_FFFF) | UInt64(timestamp ?? 0) << 32
  }

  /// The owner's TARGETS (already requested), or the text targets when it
  /// does not answer TARGETS (old owners) so that a paste still tries them.
  static func targets(_ r: SelectionRequestor, _ selection: Atom) throws -> [(atom: Atom, name: String)] {
    let c = r.connection
    var bytes: [UInt8] = []
    let info = try r.awaitAnswer(selection, to: c.atoms.targets, targetName: "TARGETS") {
      bytes.append(contentsOf: $0)
    }
    guard let info, info.format == 32, info.type == c.atoms.atom || info.type == c.atoms.targets else {
      return [(c.atoms.utf8String, "UTF8_STRING"), (c.atoms.string, "STRING")]
    }
    let atoms = words(bytes).filter { $0 != 0 }
    let names = c.names(of: atoms)
    var result: [(atom: Atom, name: String)] = []
    for (a, n) in zip(atoms, names) {
      if let n, !result.contains(where: { $0.atom == a }) { result.append((a, n)) }
    }
    return result
  }

  /// The TIMESTAMP a pb owner keeps on its window, or nil for others.
  static func publishedTimestamp(of owner: Window, on c: XConnection) -> Time? {
    c.withProperty(c.atoms.ownedAtProperty, of: owner, longs: 1, type: c.atoms.integer) { p -> Time? in
      guard p.type == c.atoms.integer, p.count == 1, let long = p.longs.first else { return nil }
      return Time(UInt32(truncatingIfNeeded: long))
    } ?? nil
  }

  static func timestamp(_ r: SelectionRequestor, _ selection: Atom) throws -> Time? {
    let c = r.connection
    var bytes: [UInt8] = []
    let info = try r.convert(selection, to: c.atoms.timestamp, targetName: "TIMESTAMP", property: c.atoms.timestampProperty) {
      if bytes.count < 64 { bytes.append(contentsOf: $0) }
    }
    guard let info, info.type == c.atoms.integer, info.format == 32, let t = words(bytes).first else { return nil }
    return Time(t)
  }
}
