// One column of a Parquet table as motus holds it: numbers or text, a value per row, nil for a
// null.

/// The values of one column, in row order.
public enum ParquetColumn: Sendable, Equatable {
  /// DOUBLE, FLOAT, INT32 and INT64 columns (integers beyond 2^53 are rounded to a Double).
  case doubles([Double?])
  /// BYTE_ARRAY columns holding UTF-8 text (logical type STRING, ENUM, JSON or none).
  case strings([String?])

  /// The number of rows.
  public var count: Int {
    switch self {
    case .doubles(let values): return values.count
    case .strings(let values): return values.count
    }
  }

  /// What the column holds, as errors name it: "numbers" or "text".
  public var kind: String {
    switch self {
    case .doubles: return "numbers"
    case .strings: return "text"
    }
  }

  /// The values of a numeric column, nil for a text one.
  public var doubles: [Double?]? {
    if case .doubles(let values) = self { return values }
    return nil
  }

  /// The values of a text column, nil for a numeric one.
  public var strings: [String?]? {
    if case .strings(let values) = self { return values }
    return nil
  }
}
