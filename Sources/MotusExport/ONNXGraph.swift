// An ONNX graph under construction and its serialisation as a ModelProto. Field numbers are
// those of onnx/onnx.proto (IR version 8, the one for opset 17):
//   ModelProto: ir_version 1, producer_name 2, producer_version 3, graph 7, opset_import 8,
//     doc_string 6, metadata_props 14
//   GraphProto: node 1, name 2, initializer 5, input 11, output 12
//   NodeProto: input 1, output 2, name 3, op_type 4, attribute 5
//   AttributeProto: name 1, f 2, i 3, ints 8, type 20 (FLOAT 1, INT 2, INTS 7)
//   TensorProto: dims 1, data_type 2, name 8, raw_data 9 (little-endian)
//   ValueInfoProto: name 1, type 2; TypeProto.tensor_type 1: elem_type 1, shape 2;
//     TensorShapeProto.dim 1: dim_value 1, dim_param 2

/// An ONNX tensor element type (TensorProto.DataType).
enum ONNXElementType: Int {
  case float = 1
  case int64 = 7
  case bool = 9
  case double = 11
}

/// A node attribute.
enum ONNXAttribute {
  case int(String, Int)
  case ints(String, [Int])
  case float(String, Float)
}

/// A graph input or output: name, element type, and dimensions (nil: named by `symbol`).
struct ONNXValueInfo {
  var name: String
  var type: ONNXElementType
  var shape: [Int?]
  var symbol = "batch"
}

/// Nodes and constants added in execution order; each node's output gets a fresh name.
final class ONNXGraph {
  private(set) var nodes:
    [(op: String, inputs: [String], outputs: [String], attributes: [ONNXAttribute])] = []
  private(set) var initializers:
    [(name: String, type: ONNXElementType, dims: [Int], raw: [UInt8])] = []
  var inputs: [ONNXValueInfo] = []
  var outputs: [ONNXValueInfo] = []
  private var counter = 0

  private func fresh(_ stem: String) -> String {
    counter += 1
    return "\(stem)_\(counter)"
  }

  /// Adds a node with one output and returns that output's name.
  @discardableResult
  func add(
    _ op: String, _ inputs: [String], _ attributes: [ONNXAttribute] = [], name: String? = nil
  )
    -> String
  {
    let output = name ?? fresh(op.lowercased())
    nodes.append((op, inputs, [output], attributes))
    return output
  }

  /// Adds a node with several outputs (TopK: values, indices).
  func add(_ op: String, _ inputs: [String], outputs count: Int, _ attributes: [ONNXAttribute] = [])
    -> [String]
  {
    let names = (0..<count).map { _ in fresh(op.lowercased()) }
    nodes.append((op, inputs, names, attributes))
    return names
  }

  func constant(_ values: [Double], shape: [Int]) -> String {
    initializer(type: .double, dims: shape, words: values.map(\.bitPattern))
  }

  func constant(_ values: [Float], shape: [Int]) -> String {
    initializer(type: .float, dims: shape, words: values.map(\.bitPattern))
  }

  func constant(_ values: [Int], shape: [Int]) -> String {
    initializer(type: .int64, dims: shape, words: values.map(Int64.init))
  }

  /// A scalar Double constant.
  func scalar(_ value: Double) -> String { constant([value], shape: []) }

  /// A 1-D Int64 constant (axes, shapes, slice bounds).
  func int64s(_ values: [Int]) -> String { constant(values, shape: [values.count]) }

  /// A tensor of `words` (the values' bit patterns), stored little-endian as raw_data.
  private func initializer<Word: FixedWidthInteger>(
    type: ONNXElementType, dims: [Int], words: [Word]
  ) -> String {
    precondition(words.count == dims.reduce(1, *), "\(words.count) values for shape \(dims)")
    var raw: [UInt8] = []
    raw.reserveCapacity(words.count * MemoryLayout<Word>.size)
    for word in words { withUnsafeBytes(of: word.littleEndian) { raw += $0 } }
    let name = fresh("const")
    initializers.append((name, type, dims, raw))
    return name
  }

  /// The first node input or graph output that nothing before it defines, or nil. A node reads
  /// only graph inputs, initializers and outputs of earlier nodes ("" is an absent input).
  func firstUndefinedName() -> String? {
    var defined = Set(inputs.map(\.name) + initializers.map(\.name))
    defined.insert("")
    for node in nodes {
      if let missing = node.inputs.first(where: { !defined.contains($0) }) { return missing }
      defined.formUnion(node.outputs)
    }
    return outputs.map(\.name).first { !defined.contains($0) }
  }

  /// The ModelProto bytes.
  func serialized(
    opset: Int, producer: String, version: String, documentation: String,
    metadata: [(String, String)]
  ) -> [UInt8] {
    // A graph ONNX Runtime would refuse is a bug of the export, not of the model.
    if let missing = firstUndefinedName() { preconditionFailure("'\(missing)' is never defined") }
    var model = ProtobufWriter()
    model.int(1, 8)
    model.string(2, producer)
    model.string(3, version)
    model.string(6, documentation)
    model.message(7) { graph in
      for node in nodes {
        graph.message(1) { n in
          for input in node.inputs { n.string(1, input) }
          for output in node.outputs { n.string(2, output) }
          n.string(3, node.outputs[0])
          n.string(4, node.op)
          for attribute in node.attributes { n.message(5) { Self.write(attribute, into: &$0) } }
        }
      }
      graph.string(2, "motus")
      for tensor in initializers {
        graph.message(5) { t in
          for dimension in tensor.dims { t.int(1, dimension) }
          t.int(2, tensor.type.rawValue)
          t.string(8, tensor.name)
          t.bytes(9, tensor.raw)
        }
      }
      for value in inputs { graph.message(11) { Self.write(value, into: &$0) } }
      for value in outputs { graph.message(12) { Self.write(value, into: &$0) } }
    }
    model.message(8) { opsetID in
      opsetID.string(1, "")
      opsetID.int(2, opset)
    }
    for (key, value) in metadata {
      model.message(14) { entry in
        entry.string(1, key)
        entry.string(2, value)
      }
    }
    return model.bytes
  }

  private static func write(_ attribute: ONNXAttribute, into a: inout ProtobufWriter) {
    switch attribute {
    case .int(let name, let value):
      a.string(1, name)
      a.int(3, value)
      a.int(20, 2)
    case .ints(let name, let values):
      a.string(1, name)
      for value in values { a.int(8, value) }
      a.int(20, 7)
    case .float(let name, let value):
      a.string(1, name)
      a.float(2, value)
      a.int(20, 1)
    }
  }

  private static func write(_ value: ONNXValueInfo, into v: inout ProtobufWriter) {
    v.string(1, value.name)
    v.message(2) { type in
      type.message(1) { tensor in
        tensor.int(1, value.type.rawValue)
        tensor.message(2) { shape in
          for dimension in value.shape {
            shape.message(1) { d in
              if let dimension { d.int(1, dimension) } else { d.string(2, value.symbol) }
            }
          }
        }
      }
    }
  }
}
