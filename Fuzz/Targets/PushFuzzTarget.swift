// The `push` target: bytes as a body of Sensor Logger's HTTP Push, through the parser and into
// a hub's stream (the join of sensors, the rows' text, the engine), three bodies in a row so
// order, duplicates and clocks going back are reached. A refusal must be a 4xx; a trap, a
// hang or a huge allocation is a finding.

import MotusLive
import MotusStreaming

extension FuzzTargets {
  public static func pushBody(_ bytes: [UInt8]) {
    var configuration = StreamConfiguration()
    configuration.countsSteps = true
    let hub = LiveHub(model: streamModel, configuration: configuration)
    // The body as sent, then its two halves as two more bodies of the same device.
    let half = bytes.count / 2
    for body in [bytes, Array(bytes[..<half]), Array(bytes[half...])] {
      let reply = hub.push(body)
      guard reply.status == 200 || (400..<500).contains(reply.status) else {
        fatalError("a push answered \(reply.status)")
      }
    }
    let csv = hub.samples(bytes, device: "fuzz")
    guard csv.status == 200 || (400..<500).contains(csv.status) else {
      fatalError("a CSV body answered \(csv.status)")
    }
    hub.closeIdle(all: true)
  }
}
