
/// A place in JSON text, 1-based; the column counts bytes.
public struct JSONPosition: Sendable, Equatable, CustomStringConvertible {
  public var line: Int
  public var column: Int

  public var description: String { "\(line):\(column)" }
}
