// An ONNX ModelProto read back for the tests, by a protobuf reader written from the encoding
// guide (not the writer's code): every field of every message, then the parts tests check.

import Foundation

struct ProtobufReadError: Error, CustomStringConvertible {
  var description: String
}

/// The fields of one protobuf message, in order.
struct ProtobufFields {
  enum Value {
    case varint(UInt64)
    case bytes([UInt8])
    case fixed32(UInt32)
    case fixed64(UInt64)
  }

  var fields: [(number: Int, value: Value)] = []

  init(_ bytes: [UInt8]) throws {
    var i = 0
    func varint() throws -> UInt64 {
      var result: UInt64 = 0, shift: UInt64 = 0
      while true {
        guard i < bytes.count, shift < 64 else {
          throw ProtobufReadError(description: "truncated varint at \(i)")
        }
        let byte = bytes[i]
        i += 1
        result |= UInt64(byte & 0x7f) << shift
        if byte < 0x80 { return result }
        shift += 7
      }
    }
    func take(_ count: Int) throws -> [UInt8] {
      guard count >= 0, i + count <= bytes.count else {
        throw ProtobufReadError(description: "truncated field at \(i)")
      }
      defer { i += count }
      return Array(bytes[i..<(i + count)])
    }
    while i < bytes.count {
      let key = try varint()
      let number = Int(key >> 3)
      switch key & 7 {
      case 0: fields.append((number, .varint(try varint())))
      case 1:
        fields.append((number, .fixed64(try take(8).reversed().reduce(0) { $0 << 8 | UInt64($1) })))
      case 2: fields.append((number, .bytes(try take(Int(try varint())))))
      case 5:
        fields.append((number, .fixed32(try take(4).reversed().reduce(0) { $0 << 8 | UInt32($1) })))
      default: throw ProtobufReadError(description: "wire type \(key & 7) at \(i)")
      }
    }
  }

  func messages(_ number: Int) throws -> [ProtobufFields] {
    try fields.compactMap { field in
      guard field.number == number, case .bytes(let b) = field.value else { return nil }
      return try ProtobufFields(b)
    }
  }

  func strings(_ number: Int) -> [String] {
    fields.compactMap { field in
      guard field.number == number, case .bytes(let b) = field.value else { return nil }
      return String(decoding: b, as: UTF8.self)
    }
  }

  func ints(_ number: Int) -> [Int] {
    fields.compactMap { field in
      guard field.number == number, case .varint(let v) = field.value else { return nil }
      return Int(Int64(bitPattern: v))
    }
  }
}

/// What the tests check of an exported model.
struct ExportedModel {
  var irVersion: Int
  var opset: Int
  var metadata: [String: String] = [:]
  /// Graph inputs and outputs: name -> dimensions (a number, or the symbol's name).
  var inputs: [String: [String]] = [:]
  var outputs: [String: [String]] = [:]
  var operators: [String] = []
  /// Node inputs that no earlier node, initializer or graph input defines.
  var undefinedInputs: [String] = []
  var producedNames: Set<String> = []
  /// Every 1-D int64 initializer's values.
  var int64Constants: [[Int]] = []

  init(_ bytes: [UInt8]) throws {
    let model = try ProtobufFields(bytes)
    irVersion = model.ints(1).first ?? -1
    opset = try model.messages(8).first?.ints(2).first ?? -1
    for entry in try model.messages(14) {
      metadata[entry.strings(1).first ?? ""] = entry.strings(2).first
    }
    guard let graph = try model.messages(7).first else {
      throw ProtobufReadError(description: "no graph")
    }
    func shapes(_ values: [ProtobufFields]) throws -> [String: [String]] {
      var out: [String: [String]] = [:]
      for value in values {
        let tensorType = try value.messages(2).first?.messages(1).first
        let dims = try tensorType?.messages(2).first?.messages(1) ?? []
        out[value.strings(1).first ?? ""] = dims.map {
          $0.ints(1).first.map(String.init) ?? $0.strings(2).first ?? "?"
        }
      }
      return out
    }
    inputs = try shapes(try graph.messages(11))
    outputs = try shapes(try graph.messages(12))
    var defined = Set(inputs.keys)
    for tensor in try graph.messages(5) {
      defined.insert(tensor.strings(8).first ?? "")
      if tensor.ints(2).first == 7, tensor.ints(1).count == 1,
        case .bytes(let raw)? = tensor.fields.first(where: { $0.number == 9 })?.value
      {
        int64Constants.append(
          stride(from: 0, to: raw.count, by: 8).map { start in
            Int(
              Int64(
                bitPattern: raw[start..<(start + 8)].reversed().reduce(0) { $0 << 8 | UInt64($1) }))
          })
      }
    }
    for node in try graph.messages(1) {
      operators.append(node.strings(4).first ?? "")
      undefinedInputs += node.strings(1).filter { !$0.isEmpty && !defined.contains($0) }
      for output in node.strings(2) {
        defined.insert(output)
        producedNames.insert(output)
      }
    }
  }
}
