import MoyaHTTP
import MoyaSpec
import OpenAPIKit
import OpenAPIKit30
import OpenAPIKitCompat

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Why an OpenAPI document could not be read.
public struct OpenAPIReadError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, as one sentence.
    public var message: String

    public var description: String { message }
}

/// A document as read: OpenAPIKit's model of it, the version it declared, the order of its
/// paths (which OpenAPIKit's model does not keep when it decodes JSON on Linux), and a warning
/// for each spot that was repaired or left out.
struct ReadDocument {
    var document: OpenAPIKit.OpenAPI.Document
    /// What the document declared itself: `OpenAPI 3.0.3`, `Swagger 2.0`.
    var format: String
    var paths: [String]
    var warnings: [String]
    /// The examples the repair took out, which `JSONBridge` puts back.
    var examples: [JSONValue]
    /// The document as written, for pointers to its schemas.
    var raw: JSONValue = .null
    /// Its version: `3.0.3`, or `2.0` for Swagger.
    var version = ""
}

/// Reads an OpenAPI 3.0, 3.1 or 3.2 document, or a Swagger 2.0 one, YAML or JSON, into
/// OpenAPIKit's 3.1+ model.
///
/// JSON is read by a JSON parser, YAML by moya-cli's own libyaml loader, each into one
/// `JSONValue`. A Swagger 2.0 document is read as the 3.0 one it describes (`Swagger2`).
/// `DocumentRepair` then mends what would make OpenAPIKit refuse the whole
/// document, and a 3.0 document is converted with OpenAPIKitCompat.
enum OpenAPIReader {
    /// Reads the document in `bytes`, from `file`; `readFile` reads the other files its
    /// `$ref`s name.
    static func read(_ bytes: [UInt8], file: String, readFile: @escaping (String) -> [UInt8]? = { _ in nil })
        throws(OpenAPIReadError) -> ReadDocument
    {
        let json = try parse(bytes)
        guard case .object(var members) = json else {
            throw OpenAPIReadError(message: "expected a mapping with openapi, info and paths")
        }
        // OpenAPIKit's decoding takes time steeply with nesting (250 schema levels: a minute),
        // so a document deeper than any real one is refused before it is decoded.
        if let deepest = Self.deepest(json, limit: maximumDepth) {
            throw OpenAPIReadError(
                message: "the document nests deeper than \(maximumDepth) levels at \(deepest); "
                    + "import reads documents up to that depth")
        }
        var warnings: [String] = []
        var document = json
        var format: String?
        if let swagger = members.first(where: { $0.key == "swagger" })?.value {
            guard swagger == .string("2.0") || swagger == .number(2) else {
                throw OpenAPIReadError(message: "Swagger \(swagger.text) is not supported; this reads Swagger 2.0")
            }
            var converter = Swagger2(json)
            document = converter.convert()
            warnings = converter.warnings.map { "\(file)#\(Names.pointer($0.pointer)): \($0.message)" }
            format = "Swagger 2.0"
            if case .object(let converted) = document { members = converted }
        }
        guard let declared = members.first(where: { $0.key == "openapi" })?.value else {
            throw OpenAPIReadError(
                message: "no 'openapi' or 'swagger' version; this reads OpenAPI 3.0, 3.1 and 3.2, and Swagger 2.0")
        }
        let version: String
        switch declared {
        case .string(let text): version = text
        case .number(let number): version = JSONValue.format(number)
        default: throw OpenAPIReadError(message: "'openapi' should be a version such as 3.1.0")
        }
        guard version.hasPrefix("3.0") || version.hasPrefix("3.1") || version.hasPrefix("3.2") else {
            throw OpenAPIReadError(message: "OpenAPI \(version) is not supported; this reads 3.0, 3.1 and 3.2")
        }
        // OpenAPI 3.2's rules that OpenAPIKit does not hold a document to refuse it, each
        // problem at its place.
        if format == nil, version.hasPrefix("3.2") {
            let problems = OpenAPI32Rules.problems(in: json)
            if !problems.isEmpty {
                let shown = problems.prefix(5).map { "at \(Names.pointer($0.pointer)): \($0.message)" }
                throw OpenAPIReadError(
                    message: "not a valid OpenAPI \(version) document: " + shown.joined(separator: "; ")
                        + (problems.count > 5 ? "; and \(problems.count - 5) more" : ""))
            }
        }
        var paths: [String] = []
        if case .object(let items)? = members.first(where: { $0.key == "paths" })?.value { paths = items.map(\.key) }
        var repair = DocumentRepair(
            version: version, file: file, root: document, readFile: readFile,
            parse: { bytes in
                // Another file is held to the document's own depth.
                guard let value = try? parse(bytes), deepest(value, limit: maximumDepth) == nil else { return nil }
                return value
            })
        var repaired = repair.repair()
        warnings += repair.warnings
        // What the repair left of numbers no spec holds (a default, an example, an enum value).
        var outOfRange: [[String]] = []
        Self.leaveOutUnholdableNumbers(&repaired, at: [], found: &outOfRange)
        for pointer in outOfRange {
            warnings.append(
                "\(file)#\(Names.pointer(pointer)): a number past what a spec holds (infinite, or an integer "
                    + "past 64 bits); left out")
        }
        let decoded = try OpenAPIPieces(version: version, file: file).decode(repaired, warnings: &warnings)
        var seen: Set<String> = []
        return ReadDocument(
            document: decoded, format: format ?? "OpenAPI \(version)", paths: paths,
            warnings: warnings.filter { seen.insert($0).inserted }, examples: repair.examples,
            raw: json, version: format == nil ? version : "2.0")
    }

    /// Leaves out every number that no spec value can hold: one too large for a `Double`
    /// (`1e999`, which would print as `inf`), or an integer past 64 bits, which would be
    /// clamped. `found` gets each one's pointer. The depth is the document's, bounded before.
    static func leaveOutUnholdableNumbers(_ value: inout JSONValue, at pointer: [String], found: inout [[String]]) {
        func unholdable(_ value: JSONValue) -> Bool {
            guard case .number(let number) = value else { return false }
            return !number.isFinite || (number.rounded() == number && abs(number) >= 9.223_372_036_854_775_807e18)
        }
        switch value {
        case .object(var members):
            value = .null
            members.removeAll { member in
                guard unholdable(member.value) else { return false }
                found.append(pointer + [member.key])
                return true
            }
            for index in members.indices {
                leaveOutUnholdableNumbers(&members[index].value, at: pointer + [members[index].key], found: &found)
            }
            value = .object(members)
        case .array(var items):
            value = .null
            var kept: [JSONValue] = []
            for (index, item) in items.enumerated() {
                if unholdable(item) { found.append(pointer + [String(index)]) } else { kept.append(item) }
            }
            items = kept
            for index in items.indices {
                leaveOutUnholdableNumbers(&items[index], at: pointer + [String(index)], found: &found)
            }
            value = .array(items)
        default:
            break
        }
    }

    /// A document's value: JSON, when its first character opens an object, else YAML.
    static func parse(_ bytes: [UInt8]) throws(OpenAPIReadError) -> JSONValue {
        let first = bytes.drop(while: { [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }).first
        if first == UInt8(ascii: "{") {
            do {
                return try JSONValue(parsing: Data(bytes))
            } catch let error as JSONParseError {
                let (line, column) = position(of: error.offset, in: bytes)
                throw OpenAPIReadError(message: "\(line):\(column): \(error.reason)")
            } catch {
                throw OpenAPIReadError(message: "\(error)")
            }
        }
        let root: YAMLNode?
        do {
            root = try YAMLLoader.load(bytes)
        } catch {
            throw OpenAPIReadError(message: "\(error.mark.line):\(error.mark.column): \(error.message)")
        }
        guard let root else { throw OpenAPIReadError(message: "expected a mapping with openapi, info and paths") }
        return root.jsonValue
    }

    /// The line and column, from 1, of byte `offset`; columns count characters.
    static func position(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        for byte in bytes.prefix(offset) {
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return (line, column)
    }

    /// How deep a document's values may nest, objects and arrays alike.
    static let maximumDepth = 64

    /// The JSON pointer of the first value nested deeper than `limit`, found without
    /// recursion; nil when there is none.
    static func deepest(_ value: JSONValue, limit: Int) -> String? {
        // Only containers are kept, each with its parent's index and its key, so that the
        // pointer is made once, for the value found.
        var nodes: [(parent: Int, key: String, depth: Int)] = [(-1, "", 0)]
        var stack: [(value: JSONValue, node: Int)] = [(value, 0)]
        while let (current, node) = stack.popLast() {
            let depth = nodes[node].depth
            let children: [(String, JSONValue)]
            switch current {
            case .object(let members): children = members.map { ($0.key, $0.value) }
            case .array(let items): children = items.enumerated().map { (String($0), $1) }
            default: continue
            }
            for (key, child) in children {
                switch child {
                case .object, .array: break
                default: continue
                }
                nodes.append((node, key, depth + 1))
                if depth + 1 > limit {
                    var path: [String] = []
                    var index = nodes.count - 1
                    while index > 0 {
                        path.append(nodes[index].key)
                        index = nodes[index].parent
                    }
                    return Names.pointer(path.reversed())
                }
                stack.append((child, nodes.count - 1))
            }
        }
        return nil
    }

    /// A decoding error as one line: where, then what.
    static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
            return keys.isEmpty ? "" : "at /" + keys.joined(separator: "/") + ": "
        }
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return path(context) + context.debugDescription
        case .keyNotFound(let key, let context):
            return path(context) + "missing key '\(key.stringValue)'"
        @unknown default:
            return "\(error)"
        }
    }
}
