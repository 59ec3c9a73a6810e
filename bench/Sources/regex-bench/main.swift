// MoyaRegex on the patterns bench/regex_engines.py gives PCRE2: each pattern searched in the
// same text five times, with the outcome and the median time.
import Foundation
import MoyaRegex

let text = String(repeating: "a", count: 30) + "!"
for source in CommandLine.arguments.dropFirst() {
    let pattern: RegularExpression
    do {
        pattern = try RegularExpression(source)
    } catch {
        print("MoyaRegex /\(source)/: \(error)")
        continue
    }
    var times: [Double] = []
    var outcome = ""
    for _ in 0..<5 {
        let start = ContinuousClock.now
        do {
            outcome = try pattern.matches(in: text) ? "matches" : "no match"
        } catch {
            outcome = "out of steps (\(error.steps))"
        }
        let elapsed = ContinuousClock.now - start
        times.append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000)
    }
    times.sort()
    let engine = pattern.backtracks ? "backtracker" : "Pike VM"
    print(
        "MoyaRegex /\(source)/ on 30 a's and '!': \(outcome) (\(engine)), median "
            + String(format: "%.2f", times[2]) + " ms")
}
