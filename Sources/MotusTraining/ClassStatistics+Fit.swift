// The class statistics a model file carries for adapting (ClassStatistics), measured on the
// training windows once the model is final, in blocks read from the raw feature store, so
// neither the table nor its last-layer inputs are ever held whole (the store may have spilled
// the table to disk to keep the peak down). Sums run in Double in row order: the same windows
// give the same statistics on every machine.

import MotusLinearAlgebra
import MotusModels

extension ClassStatistics {
  /// Per class, the mean and (population) standard deviation of `model`'s last-layer inputs
  /// over the raw feature rows labelled with it; a class without rows gets zeros.
  static func measure(model: TrainedModel, features: RawFeatureStore, labels: [Int]) throws
    -> ClassStatistics
  {
    let k = model.classes.count
    let d = model.classifier.network.layers.last!.inputCount
    var counts = [Double](repeating: 0, count: k)
    var sums = [[Double]](repeating: [Double](repeating: 0, count: d), count: k)
    var squares = sums
    let block = 4096
    for start in stride(from: 0, to: features.rowCount, by: block) {
      let rows = Array(start..<min(start + block, features.rowCount))
      let h = model.lastLayerInputs(try features.rows(rows))
      for (r, i) in rows.enumerated() {
        let c = labels[i]
        counts[c] += 1
        for j in 0..<d {
          let v = Double(h.values[r * d + j])
          sums[c][j] += v
          squares[c][j] += v * v
        }
      }
    }
    var mean = [[Float]](repeating: [Float](repeating: 0, count: d), count: k)
    var deviation = mean
    for c in 0..<k where counts[c] > 0 {
      for j in 0..<d {
        let m = sums[c][j] / counts[c]
        mean[c][j] = Float(m)
        deviation[c][j] = Float(max(squares[c][j] / counts[c] - m * m, 0).squareRoot())
      }
    }
    return ClassStatistics(mean: mean, standardDeviation: deviation)
  }
}
