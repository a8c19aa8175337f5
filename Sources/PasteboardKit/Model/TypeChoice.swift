/// Chooses which offered type a paste writes out.
public enum TypeChoice {
  /// `requested` when given (text aliases accepted), else the type the
  /// output file's name suggests when offered, else text (plain UTF-8
  /// first), else the first offered type.
  /// - Throws: `.typeNotOffered` listing what is offered.
  public static func choose(from item: PasteboardItem, requested: String?, outputName: String?) throws
    -> Representation
  {
    if let requested {
      guard let rep = item.representation(for: requested) else {
        throw PasteboardError.typeNotOffered(requested: requested, offered: item.types)
      }
      return rep
    }
    if let name = outputName, let hinted = TypeDetection.typeForFileName(name),
      let rep = item.representation(for: hinted)
    {
      return rep
    }
    for text in MIMEType.textPreference {
      if let rep = item.representations.first(where: { MIMEType.same($0.type, text) }) { return rep }
    }
    if let rep = item.representations.first(where: { MIMEType.isPlainText($0.type) }) { return rep }
    guard let first = item.representations.first else {
      throw PasteboardError.nothingThere("the item has no representations")
    }
    return first
  }
}
