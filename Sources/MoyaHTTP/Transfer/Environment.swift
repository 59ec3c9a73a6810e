#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Environment variables, read from the process or from a dictionary that a test injects.
/// The process's are looked up one name at a time, so nothing is copied that is not read.
public struct Environment: Sendable, ExpressibleByDictionaryLiteral {
    private enum Source: Sendable {
        case process
        case values([String: String])
        /// Some variables set over the process's, or over others (`setting(_:)`).
        case overlay([String: String], over: [String: String]?)
    }

    private let source: Source

    /// The running process's environment.
    public static let process = Environment(source: .process)

    /// No variable set: what a spec compiles on when nothing it reads may hold a value, as
    /// for generated code and exported documents.
    public static let none = Environment([:])

    private init(source: Source) {
        self.source = source
    }

    /// An environment of exactly these variables.
    public init(_ values: [String: String]) {
        source = .values(values)
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        source = .values(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }

    /// This environment with `values` set, over what it holds.
    public func setting(_ values: [String: String]) -> Environment {
        switch source {
        case .process: Environment(source: .overlay(values, over: nil))
        case .values(let base): Environment(source: .values(base.merging(values) { $1 }))
        case .overlay(let set, let base): Environment(source: .overlay(set.merging(values) { $1 }, over: base))
        }
    }

    /// Every variable, as `NAME=value` lines for a program moya-cli runs: the process's
    /// `environ` under what is set over it.
    public var entries: [String] {
        func process() -> [String: String] {
            var variables: [String: String] = [:]
            var cursor = environ
            while let entry = cursor.pointee {
                let text = String(cString: entry)
                if let equals = text.firstIndex(of: "=") {
                    variables[String(text[..<equals])] = String(text[text.index(after: equals)...])
                }
                cursor += 1
            }
            return variables
        }
        let variables: [String: String]
        switch source {
        case .process: variables = process()
        case .values(let values): variables = values
        case .overlay(let values, let base): variables = (base ?? process()).merging(values) { $1 }
        }
        return variables.keys.sorted().map { "\($0)=\(variables[$0] ?? "")" }
    }

    /// The value of `name`, or nil when it is not set.
    public subscript(name: String) -> String? {
        switch source {
        case .values(let values): return values[name]
        case .process: return getenv(name).map { String(cString: $0) }
        case .overlay(let values, let base):
            return values[name] ?? (base.map { $0[name] } ?? getenv(name).map { String(cString: $0) })
        }
    }
}
