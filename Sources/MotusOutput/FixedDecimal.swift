import Foundation

enum FixedDecimal {
  static let powers: [Double] = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8]
}
