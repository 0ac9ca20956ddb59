// Parses decimal numbers straight from UTF-8 bytes. The fast path handles the forms CSV
// exporters write (`-0.067855`, `1e-3`, up to 19 significant digits, |exponent| <= 22) with
// one exact multiply or divide, which is correctly rounded (Clinger's fast path); anything
// else (more digits, big exponents, hex, `nan`, `inf`, surrounding spaces) goes to `strtod`.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

package enum DecimalParser {
  /// Result of parsing one cell.
  package enum Outcome: Equatable {
    case empty
    case value(Double)
    case notANumber
  }

  /// 10^0 ... 10^22, each exact in a Double. Written out so the compiler can lay the table
  /// down statically instead of building it lazily behind a check on every number.
  private static let powersOfTen: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
  ]

  /// The significant digits read so far: up to 19 fit the UInt64 mantissa exactly.
  private struct Digits {
    var mantissa: UInt64 = 0
    var count = 0
    var sawDigit = false

    /// Reads a run of digits from `i`, adding `step` to `exponent` per digit (-1 after the
    /// point); false at a 20th significant digit (the caller parses slowly).
    @inline(__always)
    mutating func read(
      _ base: UnsafePointer<UInt8>, _ i: inout Int, _ end: Int, exponent: inout Int, step: Int
    ) -> Bool {
      while i < end {
        let d = base[i] &- 48
        if d > 9 { break }
        sawDigit = true
        guard count < 19 else { return false }
        mantissa = mantissa &* 10 &+ UInt64(d)
        if mantissa != 0 { count += 1 }
        exponent += step
        i += 1
      }
      return true
    }
  }

  /// Parses `bytes[start..<end]`. Returns `.value` for finite and non-finite numbers alike
  /// (the caller rejects NaN and infinity with its own location).
  @inline(__always)
  package static func parse(_ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Outcome {
    if start == end { return .empty }
    var i = start
    var negative = false
    let first = base[i]
    if first == UInt8(ascii: "-") {
      negative = true
      i += 1
    } else if first == UInt8(ascii: "+") {
      i += 1
    }
    guard let (mantissa, fractionExponent) = readDigits(base, &i, end) else {
      return slowParse(base, start, end)
    }
    var exponent = fractionExponent
    if i < end && (base[i] | 0x20) == UInt8(ascii: "e") {
      i += 1
      var expNegative = false
      if i < end && (base[i] == UInt8(ascii: "-") || base[i] == UInt8(ascii: "+")) {
        expNegative = base[i] == UInt8(ascii: "-")
        i += 1
      }
      var e = 0
      var expDigits = 0
      while i < end {
        let d = base[i] &- 48
        if d > 9 { break }
        if e < 100_000 { e = e * 10 + Int(d) }
        expDigits += 1
        i += 1
      }
      if expDigits == 0 { return slowParse(base, start, end) }
      exponent += expNegative ? -e : e
    }
    if i != end { return slowParse(base, start, end) }
    guard let value = exactValue(mantissa, exponent, negative: negative) else {
      return slowParse(base, start, end)
    }
    return .value(value)
  }

  /// The fast path of `parse` on an unquoted field that starts at `start` and ends at the first
  /// byte that cannot continue a number: its value and that end, or nil when the field does
  /// not end there at a comma, line end or `limit`, or needs the slow path. One pass over
  /// the bytes instead of finding the field's end first; `parse` on the same field would
  /// give the same value.
  ///
  /// Digit runs of up to seven are read a word at a time (`wordDigits`), as CSV exporters'
  /// numbers are (`-0.067855`); others go a byte at a time, with the same result.
  @inline(__always)
  package static func parseField(_ base: UnsafePointer<UInt8>, _ start: Int, _ limit: Int)
    -> (value: Double, end: Int)?
  {
    guard start < limit else { return nil }
    let negative = base[start] == UInt8(ascii: "-")
    let digitsStart = negative ? start + 1 : start
    if let whole = wordDigits(base, digitsStart, limit) {
      var i = digitsStart + whole.count
      // In bounds: fewer than 8 digits were read from a word that ends before `limit`.
      guard base[i] == UInt8(ascii: ".") else {
        return whole.count > 0 ? fieldEnd(base, i, limit, whole.value, 0, negative) : nil
      }
      if let fraction = wordDigits(base, i + 1, limit), whole.count + fraction.count > 0 {
        i += 1 + fraction.count
        let mantissa = whole.value &* integerPowersOfTen[fraction.count] &+ fraction.value
        return fieldEnd(base, i, limit, mantissa, -fraction.count, negative)
      }
    }
    return parseFieldBytewise(base, start, limit)
  }

  /// `parseField` a byte at a time (its fallback, and its reference in tests).
  package static func parseFieldBytewise(_ base: UnsafePointer<UInt8>, _ start: Int, _ limit: Int)
    -> (value: Double, end: Int)?
  {
    var i = start
    guard i < limit else { return nil }
    let negative = base[i] == UInt8(ascii: "-")
    if negative { i += 1 }
    guard let (mantissa, exponent) = readDigits(base, &i, limit) else { return nil }
    return fieldEnd(base, i, limit, mantissa, exponent, negative)
  }

  /// The field's value when its digits end at `i` on a comma, line end or `limit`.
  @inline(__always)
  private static func fieldEnd(
    _ base: UnsafePointer<UInt8>, _ i: Int, _ limit: Int, _ mantissa: UInt64, _ exponent: Int,
    _ negative: Bool
  ) -> (value: Double, end: Int)? {
    if i < limit {
      // Exponents, and anything else, take the general path.
      let b = base[i]
      guard b == UInt8(ascii: ",") || b == UInt8(ascii: "\n") || b == UInt8(ascii: "\r") else {
        return nil
      }
    }
    guard let value = exactValue(mantissa, exponent, negative: negative) else { return nil }
    return (value, i)
  }

  /// 10^0 ... 10^7: the scale of a fraction read by `wordDigits`.
  private static let integerPowersOfTen: [UInt64] = [
    1, 10, 100, 1000, 10_000, 100_000, 1_000_000, 10_000_000,
  ]

  /// The run of digits at `i` (none to seven) and its value, from one 8-byte load (SWAR, as
  /// in fast_float); nil when fewer than 8 bytes remain before `end` or all 8 are digits.
  @inline(__always)
  private static func wordDigits(_ base: UnsafePointer<UInt8>, _ i: Int, _ end: Int)
    -> (value: UInt64, count: Int)?
  {
    guard end - i >= 8 else { return nil }
    let word = UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
    // A byte is a digit when its high nibble is 3, before and after adding 6. A carry out of
    // a byte (0xFA and above) can only spoil the bytes after it, not the first non-digit.
    let high = word & 0xF0F0_F0F0_F0F0_F0F0
    let highPlusSix = (word &+ 0x0606_0606_0606_0606) & 0xF0F0_F0F0_F0F0_F0F0
    let notDigit = (high ^ 0x3030_3030_3030_3030) | (highPlusSix ^ 0x3030_3030_3030_3030)
    let count = notDigit.trailingZeroBitCount / 8
    guard count < 8 else { return nil }
    guard count > 0 else { return (0, 0) }
    // The digits moved to the word's top bytes (the first is the most significant, in the
    // lowest byte of the lot), zeros below, then combined in pairs, fours and eights.
    var v = (word << UInt64(8 * (8 - count))) & 0x0F0F_0F0F_0F0F_0F0F
    v = (v &* 2561) >> 8 & 0x00FF_00FF_00FF_00FF
    v = (v &* 6_553_601) >> 16 & 0x0000_FFFF_0000_FFFF
    v = (v &* 42_949_672_960_001) >> 32
    return (v, count)
  }

  /// Integer and fraction digits from `i`: the significant digits and the power of ten the
  /// fraction gives them; nil without a digit or at a 20th significant digit (slow path).
  @inline(__always)
  private static func readDigits(_ base: UnsafePointer<UInt8>, _ i: inout Int, _ end: Int)
    -> (mantissa: UInt64, exponent: Int)?
  {
    var digits = Digits()
    var exponent = 0
    guard digits.read(base, &i, end, exponent: &exponent, step: 0) else { return nil }
    if i < end && base[i] == UInt8(ascii: ".") {
      i += 1
      guard digits.read(base, &i, end, exponent: &exponent, step: -1) else { return nil }
    }
    return digits.sawDigit ? (digits.mantissa, exponent) : nil
  }

  /// `±mantissa · 10^exponent` when one exact multiply or divide gives it correctly rounded:
  /// the mantissa fits in 53 bits and the power of ten is exact (<= 1e22); else nil.
  @inline(__always)
  private static func exactValue(_ mantissa: UInt64, _ exponent: Int, negative: Bool) -> Double? {
    guard mantissa <= (1 << 53), exponent >= -22, exponent <= 22 else { return nil }
    var value = Double(mantissa)
    if exponent < 0 {
      value /= powersOfTen[-exponent]
    } else if exponent > 0 {
      value *= powersOfTen[exponent]
    }
    return negative ? -value : value
  }

  /// `strtod` over a NUL-terminated copy; the whole (space-trimmed) cell must be consumed.
  package static func slowParse(_ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Outcome {
    var s = start
    var e = end
    while s < e && (base[s] == 32 || base[s] == 9) { s += 1 }
    while e > s && (base[e - 1] == 32 || base[e - 1] == 9) { e -= 1 }
    if s == e { return .empty }
    // Reject forms strtod accepts but a CSV number should not be (hex floats).
    var copy = [CChar](repeating: 0, count: e - s + 1)
    for k in s..<e {
      let b = base[k]
      if b == UInt8(ascii: "x") || b == UInt8(ascii: "X") { return .notANumber }
      copy[k - s] = CChar(bitPattern: b)
    }
    return copy.withUnsafeMutableBufferPointer { buffer -> Outcome in
      guard let p = buffer.baseAddress else { return .notANumber }
      var endPointer: UnsafeMutablePointer<CChar>? = nil
      let value = strtod(p, &endPointer)
      guard let stop = endPointer, stop - p == e - s else { return .notANumber }
      return .value(value)
    }
  }

  /// Convenience for tests and the row parser.
  package static func parse(_ text: String) -> Outcome {
    var bytes = Array(text.utf8)
    let count = bytes.count
    return bytes.withUnsafeMutableBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return Outcome.empty }
      return parse(UnsafePointer(base), 0, count)
    }
  }
}
