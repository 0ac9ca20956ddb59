// How each channel a model sees is computed from the raw columns of a CSV row or a sensor
// sample. Ingestion and streaming both run the same `ChannelPlan`, so training and inference
// see bit-identical channel values.

/// One output channel: an operation over named inputs, then a scale.
///
/// Inputs name raw columns or recipes listed earlier in the same plan, so
/// `|acceleration|` can be built from the derived `acceleration.x/y/z`.
public struct ChannelRecipe: Codable, Sendable, Hashable {
  public enum Operation: String, Codable, Sendable {
    /// `inputs[0]`.
    case copy
    /// The sum of the inputs (`acceleration.x = gravity.x + userAcceleration.x`).
    case sum
    /// The Euclidean norm of the inputs (`|userAcceleration|`).
    case magnitude
  }

  public var name: String
  public var operation: Operation
  public var inputs: [String]
  /// Applied after the operation; `-1` flips Android-sign acceleration to Core Motion's.
  public var scale: Float

  public init(name: String, operation: Operation, inputs: [String], scale: Float = 1) {
    self.name = name
    self.operation = operation
    self.inputs = inputs
    self.scale = scale
  }

  public static func copy(_ name: String, scale: Float = 1) -> ChannelRecipe {
    ChannelRecipe(name: name, operation: .copy, inputs: [name], scale: scale)
  }
}

/// Core Motion's device motion splits acceleration into gravity and user acceleration; data
/// without raw `acceleration.<axis>` gets it back as their sum. Training's channel selection
/// (`ChannelSelector`) and a model's input mapping (`InputAdapter`) both apply this one rule.
public enum DerivedAcceleration {
  public static let axes = ["x", "y", "z"]

  /// `gravity.<axis>`, `userAcceleration.<axis>`: the two columns summed.
  public static func inputs(axis: String) -> [String] {
    ["gravity.\(axis)", "userAcceleration.\(axis)"]
  }

  /// `acceleration.<axis> = gravity.<axis> + userAcceleration.<axis>`.
  public static func recipe(axis: String) -> ChannelRecipe {
    ChannelRecipe(name: "acceleration.\(axis)", operation: .sum, inputs: inputs(axis: axis))
  }

  /// Whether `columns` hold both inputs for every axis.
  public static func isAvailable(in columns: Set<String>) -> Bool {
    axes.allSatisfy { inputs(axis: $0).allSatisfy(columns.contains) }
  }
}

/// An ordered list of recipes bound to the raw column order of one source.
///
/// `apply` computes every recipe for one sample without allocating, so the streaming
/// engine can call it per sample.
public struct ChannelPlan: Sendable, Equatable {
  public let recipes: [ChannelRecipe]
  /// The raw column names the plan reads, in the order `apply` expects them.
  public let rawChannels: [String]
  // For recipe r: operand slots in the combined [raw..., outputs...] register file.
  private let operandSlots: [[Int]]

  public enum BindError: Error, Equatable, CustomStringConvertible {
    case unknownInput(recipe: String, input: String, available: [String])
    case emptyInputs(recipe: String)

    public var description: String {
      switch self {
      case .unknownInput(let recipe, let input, let available):
        return "channel '\(Excerpt.text(recipe))' needs '\(Excerpt.text(input))', which is not "
          + "among the columns (\(Excerpt.list(available))). "
          + "HINT: check --channels, or the sensor's channel names."
      case .emptyInputs(let recipe):
        return "channel '\(Excerpt.text(recipe))' has no inputs."
      }
    }
  }

  /// Binds `recipes` to raw columns named `rawChannels`.
  public init(recipes: [ChannelRecipe], rawChannels: [String]) throws {
    var slotOf: [String: Int] = [:]
    for (i, name) in rawChannels.enumerated() where slotOf[name] == nil { slotOf[name] = i }
    var operandSlots: [[Int]] = []
    for (r, recipe) in recipes.enumerated() {
      guard !recipe.inputs.isEmpty else { throw BindError.emptyInputs(recipe: recipe.name) }
      var slots: [Int] = []
      for input in recipe.inputs {
        guard let slot = slotOf[input] else {
          throw BindError.unknownInput(
            recipe: recipe.name, input: input, available: rawChannels)
        }
        slots.append(slot)
      }
      operandSlots.append(slots)
      // A recipe's own name now refers to its output, shadowing a raw column of that name.
      slotOf[recipe.name] = rawChannels.count + r
    }
    self.recipes = recipes
    self.rawChannels = rawChannels
    self.operandSlots = operandSlots
  }

  public var outputChannels: [String] { recipes.map(\.name) }

  /// Computes every recipe for one sample.
  ///
  /// - Parameters:
  ///   - raw: One value per `rawChannels` entry.
  ///   - output: Receives one value per recipe; `output.count >= recipes.count`.
  /// - Complexity: O(total inputs); no allocation.
  public func apply(raw: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>) {
    precondition(raw.count >= rawChannels.count, "expected \(rawChannels.count) raw values")
    precondition(output.count >= recipes.count, "output has room for \(output.count) channels")
    let rawCount = rawChannels.count
    for r in 0..<recipes.count {
      let recipe = recipes[r]
      let slots = operandSlots[r]
      var value: Float
      switch recipe.operation {
      case .copy:
        value = operand(slots[0], raw, output, rawCount)
      case .sum:
        value = 0
        for s in slots { value += operand(s, raw, output, rawCount) }
      case .magnitude:
        var sumOfSquares: Float = 0
        for s in slots {
          let v = operand(s, raw, output, rawCount)
          sumOfSquares += v * v
        }
        value = sumOfSquares.squareRoot()
      }
      output[r] = value * recipe.scale
    }
  }

  @inline(__always)
  private func operand(
    _ slot: Int, _ raw: UnsafeBufferPointer<Float>, _ output: UnsafeMutableBufferPointer<Float>,
    _ rawCount: Int
  ) -> Float {
    slot < rawCount ? raw[slot] : output[slot - rawCount]
  }

  /// Applies the plan to whole columns (`raw[c][t]`), returning `[recipes.count][t]`.
  public func apply(columns raw: [[Float]]) -> [[Float]] {
    precondition(raw.count == rawChannels.count, "expected \(rawChannels.count) raw columns")
    let sampleCount = raw.first?.count ?? 0
    var out = [[Float]](repeating: [Float](repeating: 0, count: sampleCount), count: recipes.count)
    var rawRow = [Float](repeating: 0, count: rawChannels.count)
    var outRow = [Float](repeating: 0, count: recipes.count)
    for t in 0..<sampleCount {
      for c in 0..<raw.count { rawRow[c] = raw[c][t] }
      rawRow.withUnsafeBufferPointer { r in
        outRow.withUnsafeMutableBufferPointer { o in apply(raw: r, into: o) }
      }
      for c in 0..<recipes.count { out[c][t] = outRow[c] }
    }
    return out
  }
}
