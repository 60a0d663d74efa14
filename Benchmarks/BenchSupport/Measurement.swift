import Foundation

// What the benchmark executables measure with (contract-bench, openapi-bench): wall time as
// the best of several runs, and the resident memory Linux reports for this process.

/// A duration in milliseconds.
public func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
}

/// The fastest of `runs` runs of `body` in milliseconds, after one warm-up run.
public func best(of runs: Int, _ body: () throws -> Void) rethrows -> Double {
    try body()  // warm-up
    var best = Double.infinity
    for _ in 0..<runs {
        let start = ContinuousClock.now
        try body()
        best = min(best, milliseconds(ContinuousClock.now - start))
    }
    return best
}

/// A field of `/proc/self/status` in kilobytes (`VmRSS`, `VmHWM`); 0 where there is none.
public func residentKilobytes(_ field: String) -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
        return Int(line.split(separator: " ").dropFirst().first.map(String.init) ?? "") ?? 0
    }
    return 0
}

/// Resets the peak (`VmHWM`) to the current resident size, so the next peak is what follows.
public func resetPeakResidentSize() {
    try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
}
