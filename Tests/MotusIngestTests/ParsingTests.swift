// Small parsers: subject lists, label maps, channel globs, numbers, and the row parser.

@testable import MotusData
@testable import MotusIngest
import MotusTestSupport
import XCTest

final class ParsingTests: XCTestCase {
  func testSubjectFilter_ParsesRangesListsAndNames() throws {
    let f = try SubjectFilter(parsing: "1-3, 7,alice")
    XCTAssertEqual(f.ranges, [1...3, 7...7])
    XCTAssertEqual(f.names, ["alice"])
    XCTAssertTrue(f.contains("2"))
    XCTAssertTrue(f.contains("7"))
    XCTAssertTrue(f.contains("alice"))
    XCTAssertFalse(f.contains("4"))
    XCTAssertFalse(f.contains("sub2"))
    XCTAssertEqual(try SubjectFilter(parsing: "17-20").ranges, [17...20])
  }

  func testSubjectFilter_RejectsEmptyItemsAndBackwardRanges() {
    for bad in ["", "1,,2", "5-3"] {
      XCTAssertThrowsError(try SubjectFilter(parsing: bad, flag: "--exclude-subjects")) {
        XCTAssertTrue("\($0)".contains("--exclude-subjects"), "\($0)")
        XCTAssertTrue("\($0)".contains("HINT:"), "\($0)")
      }
    }
  }

  func testLabelMap_ParsesAndRejectsWithFlagName() throws {
    XCTAssertEqual(
      try LabelMap.parse("sitting=stationary, standing = stationary"),
      ["sitting": "stationary", "standing": "stationary"])
    for bad in ["sitting", "=x", "a=", "a=b,a=c", "a=b=c"] {
      XCTAssertThrowsError(try LabelMap.parse(bad, flag: "--map")) {
        XCTAssertTrue("\($0)".hasPrefix("--map"), "\($0)")
      }
    }
  }

  func testGlob_MatchesStarAndQuestionMark() {
    XCTAssertTrue(ChannelSelector.globMatches("userAcceleration.*", "userAcceleration.x"))
    XCTAssertTrue(ChannelSelector.globMatches("*.?", "gravity.z"))
    XCTAssertTrue(ChannelSelector.globMatches("|userAcceleration|", "|userAcceleration|"))
    XCTAssertFalse(ChannelSelector.globMatches("gravity.?", "gravity.xy"))
    XCTAssertFalse(ChannelSelector.globMatches("rot*", "userAcceleration.x"))
  }

  func testDecimalParser_AgreesWithStrtodOnGeneratedNumbers() {
    // Deterministic generator (LCG) of digit strings in the forms CSV exporters write.
    var state: UInt64 = 12345
    func next() -> UInt64 {
      state = state &* 6364136223846793005 &+ 1442695040888963407
      return state >> 33
    }
    for _ in 0..<20000 {
      let intDigits = Int(next() % 6)
      let fracDigits = Int(next() % 12)
      var s = next() % 2 == 0 ? "-" : ""
      s += intDigits == 0 ? "0" : String(next() % UInt64(pow(10.0, Double(intDigits))))
      if fracDigits > 0 {
        s += "." + (0..<fracDigits).map { _ in String(next() % 10) }.joined()
      }
      if next() % 5 == 0 { s += "e" + String(Int(next() % 40) - 20) }
      guard case .value(let v) = DecimalParser.parse(s) else { return XCTFail(s) }
      XCTAssertEqual(v, Double(s), s)
    }
    XCTAssertEqual(DecimalParser.parse(""), .empty)
    XCTAssertEqual(DecimalParser.parse("12345678901234567890123"), .value(1.2345678901234568e22))
    XCTAssertEqual(DecimalParser.parse(" 2.5 "), .value(2.5))
    for bad in ["abc", "1.2.3", "-", ".", "1e", "0x1p3", "1,5"] {
      XCTAssertEqual(DecimalParser.parse(bad), .notANumber, bad)
    }
  }

  func testParseField_WordAtATimeAgreesWithByteAtATime() {
    // Deterministic generator (LCG) of cells of every digit-run length around the 8-byte
    // word, with what may follow them: separators, digits, letters and bytes from 0xFA up
    // (whose carry could spoil a word's digit test), and limits that cut the word short.
    var state: UInt64 = 99
    func next(_ bound: Int) -> Int {
      state = state &* 6364136223846793005 &+ 1442695040888963407
      return Int((state >> 33) % UInt64(bound))
    }
    let tails: [[UInt8]] = [
      Array(",".utf8), Array("\n".utf8), Array("\r\n".utf8), Array("e5".utf8), Array(".".utf8),
      Array("x".utf8), [0xFA], [0xFF], [0x2F], [0x3A], Array("12345678".utf8), [],
    ]
    var parsed = 0
    for _ in 0..<200_000 {
      var cell: [UInt8] = []
      if next(3) == 0 { cell.append(UInt8(ascii: "-")) }
      if next(8) == 0 { cell.append(UInt8(ascii: "+")) }
      cell += (0..<next(10)).map { _ in UInt8(48 + next(10)) }
      if next(4) > 0 { cell.append(UInt8(ascii: ".")) }
      cell += (0..<next(11)).map { _ in UInt8(48 + next(10)) }
      let bytes = cell + tails[next(tails.count)] + (0..<next(12)).map { _ in UInt8(next(256)) }
      let limit = next(4) == 0 ? next(bytes.count + 1) : bytes.count
      bytes.withUnsafeBufferPointer { buffer in
        guard let base = buffer.baseAddress else { return }
        let word = DecimalParser.parseField(base, 0, limit)
        let byte = DecimalParser.parseFieldBytewise(base, 0, limit)
        let context = "\(bytes) limit \(limit)"
        XCTAssertEqual(word?.value.bitPattern, byte?.value.bitPattern, context)
        XCTAssertEqual(word?.end, byte?.end, context)
        if let word, let text = String(bytes: bytes[0..<word.end], encoding: .utf8) {
          XCTAssertEqual(word.value.bitPattern, Double(text)?.bitPattern, context)
          parsed += 1
        }
        // The stream's cell reader agrees with the general parser on the cell before a comma.
        if let comma = bytes[0..<limit].firstIndex(of: UInt8(ascii: ",")) {
          let stream = CSVRowParser.number(in: buffer, from: 0, to: comma)
          let general: Double? =
            switch DecimalParser.parse(base, 0, comma) {
            case .empty: nil
            case .notANumber: .nan
            case .value(let v): v
            }
          XCTAssertEqual(stream?.bitPattern, general?.bitPattern, context)
        }
      }
    }
    XCTAssertGreaterThan(parsed, 50_000, "most generated cells are numbers")
  }

  func testSplitPlainLine_AgreesWithAByteLoopOnGeneratedLines() throws {
    // Lines of number-like bytes with commas, quotes, line ends, spaces, '+' and bytes from
    // 0x80 up mixed in, for headers of 1 to 6 columns: the word-at-a-time scan must find
    // the same field ends, and refuse the same lines, as a byte loop.
    func byteLoop(_ line: [UInt8], columns: Int) -> [Int]? {
      var ends: [Int] = []
      for (i, b) in line.enumerated() {
        if b == UInt8(ascii: ",") {
          guard ends.count < columns - 1 else { return nil }
          ends.append(i)
        } else if b == UInt8(ascii: "\"") || b == UInt8(ascii: "\n") || b == UInt8(ascii: "\r") {
          return nil
        }
      }
      return ends.count == columns - 1 && !line.isEmpty ? ends + [line.count] : nil
    }
    var state: UInt64 = 7
    func next(_ bound: Int) -> Int {
      state = state &* 6364136223846793005 &+ 1442695040888963407
      return Int((state >> 33) % UInt64(bound))
    }
    let common = Array("0123456789.-eE".utf8)
    let rare: [UInt8] = Array(",\"\n\r +/".utf8) + [0x00, 0x2C, 0x2D, 0x7F, 0x80, 0xAD, 0xFF]
    var accepted = 0
    for columns in 1...6 {
      let parser = try CSVRowParser(
        headerLine: (0..<columns).map { "c\($0)" }.joined(separator: ","))
      for _ in 0..<20_000 {
        let line: [UInt8] = (0..<next(40)).map { _ in
          next(4) == 0
            ? (next(3) == 0 ? rare[next(rare.count)] : UInt8(ascii: ","))
            : common[next(common.count)]
        }
        var ends: [Int] = []
        let ok = line.withUnsafeBufferPointer { parser.splitPlainLine($0, ends: &ends) }
        let expected = byteLoop(line, columns: columns)
        XCTAssertEqual(ok ? ends : nil, expected, "\(line) columns \(columns)")
        if ok { accepted += 1 }
      }
    }
    XCTAssertGreaterThan(accepted, 5_000, "many generated lines are plain")
  }

  func testScannerNextNumber_ReadsPlainNumbersAsNextThenParseWouldAndLeavesTheRest() {
    let cells = [
      "-0.067855", "0.921579", "12", "-0", ".5", "1.", "0.123456789012345678",
      "12345678901234567890", "1e-3", "+2", "", "-", ".", " 2.5", "2.5 ", "\"3\"", "abc", "1.2.3",
      "9007199254740993", "0.0000000000000000000000001",
    ]
    for cell in cells {
      for terminator in [",", "\n", "\r\n", ""] {
        let bytes = Array((cell + terminator + "7").utf8)
        let count = terminator.isEmpty ? cell.utf8.count : bytes.count
        bytes.withUnsafeBufferPointer { buffer in
          var fused = CSVScanner(base: buffer.baseAddress!, count: count)
          var plain = fused
          let field = plain.next()
          let context = "\(cell.debugDescription) + \(terminator.debugDescription)"
          guard let (fusedField, value) = fused.nextNumber() else {
            XCTAssertEqual(fused.position, 0, context)
            return
          }
          XCTAssertEqual(plain.number(field), .value(value), context)
          XCTAssertEqual(value.bitPattern, Double(cell)?.bitPattern, context)
          XCTAssertEqual(fusedField.start, field.start, context)
          XCTAssertEqual(fusedField.end, field.end, context)
          XCTAssertEqual(fusedField.terminator, field.terminator, context)
          XCTAssertEqual(fused.position, plain.position, context)
          XCTAssertEqual(fused.line, plain.line, context)
        }
      }
    }
    // The cells a CSV exporter writes take the one-pass path.
    let row = Array("-0.067855,0.921579,12\n".utf8)
    row.withUnsafeBufferPointer { buffer in
      var scanner = CSVScanner(base: buffer.baseAddress!, count: buffer.count)
      XCTAssertEqual(scanner.nextNumber()?.value, -0.067855)
      XCTAssertEqual(scanner.nextNumber()?.value, 0.921579)
      XCTAssertEqual(scanner.nextNumber()?.value, 12)
      XCTAssertTrue(scanner.atEnd)
    }
  }

  func testRowParser_ParsesLinesWithLineNumbersAndErrors() throws {
    var parser = try CSVRowParser(headerLine: "\u{FEFF}timestamp,label,\"x\"\r", file: "live")
    XCTAssertEqual(parser.header, ["timestamp", "label", "x"])
    let t = try parser.requireColumn("timestamp", option: "--time-column")
    let x = try XCTUnwrap(parser.column("x"))
    let row = try XCTUnwrap(try parser.parse("0.02,\"a,b\",1.5\r\n"))
    XCTAssertEqual(row.line, 2)
    XCTAssertEqual(row.fields, ["0.02", "a,b", "1.5"])
    XCTAssertEqual(try row.number(at: t), 0.02)
    XCTAssertEqual(try row.number(at: x), 1.5)
    XCTAssertNil(try parser.parse(""))  // blank line 3
    let empty = try XCTUnwrap(try parser.parse("0.04,a,"))
    XCTAssertNil(try empty.number(at: x))
    let bad = try XCTUnwrap(try parser.parse("0.06,a,zz"))
    XCTAssertThrowsError(try bad.number(at: x)) { error in
      XCTAssertEqual(
        error as? CSVError,
        .nonNumeric(
          text: "zz", at: CSVLocation(file: "live", line: 5, column: 3, columnName: "x")))
    }
    XCTAssertThrowsError(try parser.parse("0.08,a")) { error in
      guard case .raggedRow(let at, 3, 2)? = error as? CSVError else { return XCTFail("\(error)") }
      XCTAssertEqual([at.line, at.column], [6, 3])
    }
    XCTAssertThrowsError(try parser.requireColumn("session", option: "--session-column"))
    XCTAssertThrowsError(try CSVRowParser(headerLine: "a,b,a")) { error in
      guard case .duplicateColumn("a", let at, 1)? = error as? CSVError else {
        return XCTFail("\(error)")
      }
      XCTAssertEqual(at.column, 3)
    }
  }
}
