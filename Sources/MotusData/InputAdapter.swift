// Maps the columns of a user's CSV onto the raw inputs a model's channel recipes read, the way
// ingestion does for training: `acceleration.<axis>` from a raw column when the file has one,
// else `gravity.<axis> + userAcceleration.<axis>` (Core Motion device motion); raw
// acceleration negated for Android-sign files. Values in g or the file's own units; the plan
// is resolved once per header, then `apply` runs per row without allocating.

/// Produces, for each raw input a model needs, its value from one CSV row.
///
///     let adapter = try InputAdapter(
///       modelInputs: ChannelSelector.rawInputs(of: spec.recipes), header: parser.header,
///       file: "walk.csv", negateAcceleration: false, modelNegatesAcceleration: false)
///     try adapter.apply(row: row, into: values)   // values.count == adapter.inputs.count
///
/// Sign convention: Motus channels are in Core Motion sign. `negateAcceleration` says the
/// file's raw `acceleration.*` columns are in Android sign; derived acceleration is already in
/// Core Motion sign. A model whose recipes copy `acceleration.*` with scale -1 (trained on an
/// Android file with `--negate-acceleration`) expects Android-sign input, so every
/// acceleration value is flipped once more before it reaches that model's recipes.
public struct InputAdapter: Sendable, Equatable {
  /// Where one model input comes from.
  public enum Source: Sendable, Equatable, CustomStringConvertible {
    /// `scale * column`.
    case column(String, scale: Float)
    /// `scale * (first + second)`: `acceleration.x = gravity.x + userAcceleration.x`.
    case sum(String, String, scale: Float)

    public var description: String {
      switch self {
      case .column(let name, let scale): return scale == 1 ? name : "-\(name)"
      case .sum(let a, let b, let scale): return scale == 1 ? "\(a) + \(b)" : "-(\(a) + \(b))"
      }
    }
  }

  /// The model's raw input names, in the order `apply` writes them.
  public let inputs: [String]
  /// One source per input.
  public let sources: [Source]
  // Per input: 0-based CSV column indices (second is -1 for a copy) and the scale.
  private let firstColumn: [Int]
  private let secondColumn: [Int]
  private let scales: [Float]

  /// Resolves every model input against `header`.
  ///
  /// - Parameters:
  ///   - modelInputs: `ChannelSelector.rawInputs(of: spec.recipes)`.
  ///   - header: The CSV's column names, in file order.
  ///   - file: Names the file in errors.
  ///   - negateAcceleration: The file's raw `acceleration.*` columns are in Android sign.
  ///   - modelNegatesAcceleration: The model's recipes flip acceleration themselves (see
  ///     `modelNegatesAcceleration(_:)`).
  /// - Throws: `InputAdapterError.missingInput` (with what would do instead),
  ///   `.negateWithoutRawAcceleration`.
  public init(
    modelInputs: [String], header: [String], file: String, negateAcceleration: Bool,
    modelNegatesAcceleration: Bool = false
  ) throws {
    var index: [String: Int] = [:]
    for (i, name) in header.enumerated() where index[name] == nil { index[name] = i }
    var sources: [Source] = []
    var first: [Int] = []
    var second: [Int] = []
    var scales: [Float] = []
    var negatedSomething = false
    for input in modelInputs {
      let axis = Self.accelerationAxis(input)
      // The model's recipes undo an Android sign they expect: flip Core Motion input for them.
      let modelFlip: Float = axis != nil && modelNegatesAcceleration ? -1 : 1
      if let column = index[input] {
        let negate = axis != nil && negateAcceleration
        negatedSomething = negatedSomething || negate
        let scale = (negate ? -1 : 1) * modelFlip
        sources.append(.column(input, scale: scale))
        first.append(column)
        second.append(-1)
        scales.append(scale)
      } else if let axis, case let parts = DerivedAcceleration.inputs(axis: axis),
        let g = index[parts[0]], let u = index[parts[1]]
      {
        sources.append(.sum(parts[0], parts[1], scale: modelFlip))
        first.append(g)
        second.append(u)
        scales.append(modelFlip)
      } else {
        throw InputAdapterError.missingInput(
          file: file, input: input,
          alternatives: axis.map(DerivedAcceleration.inputs(axis:)) ?? [], available: header)
      }
    }
    // A flag that changes nothing would hide a mix-up of files or models, as in training.
    if negateAcceleration && !negatedSomething {
      throw InputAdapterError.negateWithoutRawAcceleration(file: file, available: header)
    }
    inputs = modelInputs
    self.sources = sources
    firstColumn = first
    secondColumn = second
    self.scales = scales
  }

  /// `x` for `acceleration.x` (also y, z); nil for every other name.
  static func accelerationAxis(_ name: String) -> String? {
    for axis in ChannelSelector.axes where name == "acceleration.\(axis)" { return axis }
    return nil
  }

  /// Whether `recipes` copy raw `acceleration.*` with a negative scale, i.e. the model was
  /// trained on Android-sign files with `--negate-acceleration` and expects that sign.
  public static func modelNegatesAcceleration(_ recipes: [ChannelRecipe]) -> Bool {
    recipes.contains {
      $0.operation == .copy && $0.scale < 0 && $0.inputs.count == 1
        && accelerationAxis($0.inputs[0]) != nil
    }
  }

  /// The CSV columns read, as 0-based indices (each once, ascending).
  public var columns: [Int] { Array(Set(firstColumn + secondColumn.filter { $0 >= 0 })).sorted() }

  /// Inputs not copied unchanged from a column of the same name: derived or negated, as
  /// `name = source` lines for a note.
  public var adaptations: [String] {
    zip(inputs, sources).compactMap { input, source in
      if case .column(let name, 1) = source, name == input { return nil }
      return "\(input) = \(source)"
    }
  }

  /// The adaptation as channel recipes named after the model's inputs, for a `ChannelPlan`
  /// that runs them before the model's own recipes (batch loading); an input copied unchanged
  /// from its own column needs none. The arithmetic is `apply`'s: `(0 + a + b) * scale`.
  public var recipes: [ChannelRecipe] {
    zip(inputs, sources).compactMap { input, source in
      switch source {
      case .column(let name, let scale):
        if name == input && scale == 1 { return nil }
        return ChannelRecipe(name: input, operation: .copy, inputs: [name], scale: scale)
      case .sum(let a, let b, let scale):
        return ChannelRecipe(name: input, operation: .sum, inputs: [a, b], scale: scale)
      }
    }
  }

  /// Fills `output` with one value per input from a row's column values.
  ///
  /// - Parameters:
  ///   - value: The number in a 0-based column, or nil for an empty cell (the output is NaN
  ///     then, which the streaming engine counts and skips).
  ///   - output: `output.count >= inputs.count`.
  /// - Complexity: O(inputs); no allocation.
  public func apply(
    _ value: (Int) throws -> Double?, into output: UnsafeMutableBufferPointer<Float>
  ) rethrows {
    precondition(
      output.count >= inputs.count, "output has room for \(output.count) of \(inputs.count)")
    for k in 0..<inputs.count {
      // Float addition in the order ChannelPlan uses for a `.sum` recipe: 0 + gravity + user.
      guard let a = try value(firstColumn[k]) else {
        output[k] = .nan
        continue
      }
      var v: Float = 0
      v += Float(a)
      if secondColumn[k] >= 0 {
        guard let b = try value(secondColumn[k]) else {
          output[k] = .nan
          continue
        }
        v += Float(b)
      }
      output[k] = v * scales[k]
    }
  }

  /// `apply` on a parsed CSV row.
  ///
  /// - Throws: `CSVError.nonNumeric`, `.nonFinite` or `.outOfRange` naming the line and column.
  public func apply(row: CSVRow, into output: UnsafeMutableBufferPointer<Float>) throws {
    try apply({ try row.number(at: $0) }, into: output)
  }
}

/// A model input the CSV cannot provide, or a sign flag with nothing to flip.
public enum InputAdapterError: Error, Equatable, CustomStringConvertible {
  /// No column `input`, and not all of `alternatives` either.
  case missingInput(file: String, input: String, alternatives: [String], available: [String])
  case negateWithoutRawAcceleration(file: String, available: [String])

  public var description: String {
    switch self {
    case .missingInput(let file, let input, let alternatives, let available):
      let needs =
        alternatives.isEmpty
        ? "" : " (needs \(Excerpt.text(input)) or \(alternatives.joined(separator: " + ")))"
      var hint = "rename the file's column to the model's name"
      if input.hasPrefix("gravity.") || input.hasPrefix("userAcceleration.") {
        hint += ", or use a model trained on acceleration only (e.g. models/six-class.motus)"
      }
      return "\(file): no column named '\(Excerpt.text(input))', which the model reads"
        + "\(needs); columns: \(Excerpt.list(available)). HINT: \(hint); `motus model-info MODEL` "
        + "lists the columns a model needs."
    case .negateWithoutRawAcceleration(let file, let available):
      return "\(file): --negate-acceleration given, but the file has no raw acceleration.x/y/z "
        + "column the model reads (columns: \(Excerpt.list(available))). HINT: "
        + "acceleration derived as gravity + userAcceleration is already in Core Motion sign; "
        + "drop the flag."
    }
  }
}
