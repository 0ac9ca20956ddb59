import MotusTraining
import XCTest

final class AdamTests: XCTestCase {
  func testUpdate_OneStepByHand() {
    // lr = 0.1, β1 = 0.9, β2 = 0.999, ε = 1e-8; θ = [1, -2], g = [0.5, -4]
    // m = 0.1·g = [0.05, -0.4];  v = 0.001·g² = [0.00025, 0.016]
    // lr_t = 0.1·√(1 - 0.999) / (1 - 0.9) = 0.1·0.0316228 / 0.1 = 0.0316228
    // step = lr_t·m / (√v + ε) = 0.0316228·[0.05 / 0.0158114, -0.4 / 0.1264911] = [0.1, -0.1]
    // θ = [1 - 0.1, -2 + 0.1] = [0.9, -1.9]   (Adam's first step is ±lr per coordinate)
    var adam = Adam(parameterCount: 2, learningRate: 0.1)
    var theta: [Float] = [1, -2]
    adam.update(&theta, gradient: [0.5, -4])
    XCTAssertEqual(theta[0], 0.9, accuracy: 1e-6)
    XCTAssertEqual(theta[1], -1.9, accuracy: 1e-6)
    XCTAssertEqual(adam.firstMoment[0], 0.05, accuracy: 1e-7)
    XCTAssertEqual(adam.secondMoment[1], 0.016, accuracy: 1e-6)  // 1 - β2 is inexact in Float
    // Second step with g = [0.5, 0]:
    // m = [0.9·0.05 + 0.05, 0.9·(-0.4)] = [0.095, -0.36]
    // v = [0.999·0.00025 + 0.00025, 0.999·0.016] = [0.00049975, 0.015984]
    // lr_t = 0.1·√(1 - 0.999²) / (1 - 0.81) = 0.1·0.0447102 / 0.19 = 0.0235317
    // θ0 = 0.9 - 0.0235317·0.095 / 0.0223551 = 0.9 - 0.1 = 0.8 (to 1e-5)
    // θ1 = -1.9 + 0.0235317·0.36 / 0.1264269 = -1.9 + 0.0670076 = -1.8329924
    adam.update(&theta, gradient: [0.5, 0])
    XCTAssertEqual(theta[0], 0.8, accuracy: 1e-5)
    XCTAssertEqual(theta[1], -1.8329924, accuracy: 1e-5)
  }
}
