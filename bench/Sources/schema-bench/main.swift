// Validates every instance in a JSON array against a schema, RUNS times, and prints the
// median time of one pass in milliseconds: MoyaSchema's side of bench/schema.sh.
//
//   schema-bench SCHEMA.json INSTANCES.json [RUNS] [DIALECT]

import MoyaCore
import MoyaSchema

#if canImport(Glibc)
    import Glibc
#endif
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Writes a line to standard error.
func complain(_ text: String) {
    let line = Array((text + "\n").utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    complain("usage: schema-bench SCHEMA.json INSTANCES.json [RUNS] [DIALECT]")
    exit(64)
}
let runs = arguments.count > 3 ? Int(arguments[3]) ?? 5 : 5
let dialect = arguments.count > 4 ? SchemaDialect(metaschema: arguments[4]) ?? .openAPI30 : .openAPI30
func load(_ path: String) -> JSONValue? {
    FileManager.default.contents(atPath: path).flatMap { try? JSONValue(parsing: $0) }
}
guard let schema = load(arguments[1]), case .array(let instances)? = load(arguments[2]) else {
    complain("schema-bench: cannot read the schema \(arguments[1]) or the array of instances \(arguments[2])")
    exit(66)
}
let validator = SchemaValidator(schema: schema, dialect: dialect)
var times: [Double] = []
var invalid = 0
for _ in 0..<runs {
    let start = ContinuousClock.now
    invalid = instances.reduce(0) { $0 + (validator.isValid($1) ? 0 : 1) }
    let elapsed = ContinuousClock.now - start
    times.append(Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
}
times.sort()
print((times[times.count / 2] * 10).rounded() / 10)
if invalid > 0 {
    complain("schema-bench: \(invalid) of \(instances.count) instances are invalid")
    if let first = instances.first(where: { !validator.isValid($0) }) {
        for error in validator.errors(in: first).prefix(5) { complain("  \(error)") }
    }
    exit(1)
}
