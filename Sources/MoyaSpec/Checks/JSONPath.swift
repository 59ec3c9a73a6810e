import MoyaCore

/// The JSON path subset checks use: `$`, `.key`, `[N]`, `[*]`, `.*` and quoted keys `['a.b']`
/// or `["a.b"]`.
public struct JSONPath: Sendable, Hashable, CustomStringConvertible {
    /// One step of a path.
    public enum Step: Sendable, Hashable {
        /// An object member.
        case key(String)
        /// An array element; negative counts from the end.
        case index(Int)
        /// Every element of an array or member of an object.
        case wildcard
    }

    /// The steps after `$`.
    public var steps: [Step]
    /// The path as written.
    public var description: String

    /// Whether the path can match more than one value.
    public var isWildcard: Bool { steps.contains(.wildcard) }

    /// Parses a path; the error says what is wrong.
    public init(parsing text: String) throws(JSONPathError) {
        description = text
        steps = []
        let bytes = Array(text.utf8)
        guard bytes.first == UInt8(ascii: "$") else { throw JSONPathError("a JSON path starts with $") }
        var index = 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "."):
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "*") {
                    steps.append(.wildcard)
                    index += 1
                    continue
                }
                let start = index
                while index < bytes.count, bytes[index] != UInt8(ascii: "."), bytes[index] != UInt8(ascii: "[") {
                    index += 1
                }
                guard index > start else { throw JSONPathError("an empty key after '.'") }
                steps.append(.key(String(decoding: bytes[start..<index], as: UTF8.self)))
            case UInt8(ascii: "["):
                index += 1
                guard index < bytes.count else { throw JSONPathError("an unclosed '['") }
                let quote = bytes[index]
                if quote == UInt8(ascii: "'") || quote == UInt8(ascii: "\"") {
                    let start = index + 1
                    guard let end = bytes[start...].firstIndex(of: quote), end + 1 < bytes.count,
                        bytes[end + 1] == UInt8(ascii: "]")
                    else { throw JSONPathError("a quoted key needs its closing quote and ']'") }
                    steps.append(.key(String(decoding: bytes[start..<end], as: UTF8.self)))
                    index = end + 2
                } else {
                    guard let end = bytes[index...].firstIndex(of: UInt8(ascii: "]")) else {
                        throw JSONPathError("an unclosed '['")
                    }
                    let inside = String(decoding: bytes[index..<end], as: UTF8.self)
                    if inside == "*" {
                        steps.append(.wildcard)
                    } else if let number = Int(inside) {
                        steps.append(.index(number))
                    } else {
                        throw JSONPathError("'[\(inside)]' is not an index, * or a quoted key")
                    }
                    index = end + 1
                }
            default:
                throw JSONPathError("expected '.' or '[' at '\(String(decoding: bytes[index...], as: UTF8.self))'")
            }
        }
    }

    /// Every value the path reaches in `root`; empty when it reaches none.
    public func values(in root: JSONValue) -> [JSONValue] {
        var current = [root]
        for step in steps {
            var next: [JSONValue] = []
            for value in current {
                switch (step, value) {
                case (.key(let key), .object(let members)):
                    if let member = members.first(where: { $0.key == key }) { next.append(member.value) }
                case (.index(let position), .array(let items)):
                    let resolved = position < 0 ? items.count + position : position
                    if items.indices.contains(resolved) { next.append(items[resolved]) }
                case (.wildcard, .array(let items)):
                    next += items
                case (.wildcard, .object(let members)):
                    next += members.map(\.value)
                default:
                    break
                }
            }
            current = next
        }
        return current
    }
}

/// Why a JSON path could not be read.
public struct JSONPathError: Error, Sendable, CustomStringConvertible {
    /// What is wrong.
    public var description: String

    init(_ description: String) {
        self.description = description
    }
}
