import MoyaCore
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

/// Reads an OpenAPI 3.0, 3.1 or 3.2 document, YAML or JSON, into OpenAPIKit's 3.1+ model.
///
/// YAML is read by moya-cli's own libyaml loader and handed to OpenAPIKit as JSON, so that
/// there is one YAML reader in the project. A 3.0 document is converted with OpenAPIKitCompat.
enum OpenAPIReader {
    /// The document in `bytes`, the version it declared, and the order of its paths, which
    /// OpenAPIKit's model does not keep when it decodes JSON on Linux.
    static func read(_ bytes: [UInt8]) throws(OpenAPIReadError) -> (
        document: OpenAPIKit.OpenAPI.Document, version: String, paths: [String]
    ) {
        let root: YAMLNode?
        do {
            root = try YAMLLoader.load(bytes)
        } catch {
            throw OpenAPIReadError(message: "\(error.mark.line):\(error.mark.column): \(error.message)")
        }
        guard let root, case .mapping = root.content else {
            throw OpenAPIReadError(message: "expected a mapping with openapi, info and paths")
        }
        let json = root.jsonValue
        // OpenAPIKit's decoding takes time steeply with nesting (250 schema levels: a minute),
        // so a document deeper than any real one is refused before it is decoded.
        if let deepest = Self.deepest(json, limit: maximumDepth) {
            throw OpenAPIReadError(
                message: "the document nests deeper than \(maximumDepth) levels at \(deepest); "
                    + "import reads documents up to that depth")
        }
        guard case .object(let members) = json,
            let declared = members.first(where: { $0.key == "openapi" })?.value
        else {
            throw OpenAPIReadError(
                message: "no 'openapi' version; this reads OpenAPI 3.0, 3.1 and 3.2 (Swagger 2.0 is not supported)")
        }
        let version: String
        switch declared {
        case .string(let text): version = text
        case .number(let number): version = JSONValue.format(number)
        default: throw OpenAPIReadError(message: "'openapi' should be a version such as 3.1.0")
        }
        var paths: [String] = []
        if case .object(let items)? = members.first(where: { $0.key == "paths" })?.value { paths = items.map(\.key) }
        let data = json.data()
        let decoder = JSONDecoder()
        do {
            if version.hasPrefix("3.0") {
                let old = try decoder.decode(OpenAPIKit30.OpenAPI.Document.self, from: data)
                return (old.convert(to: .v3_1_1), version, paths)
            }
            guard version.hasPrefix("3.1") || version.hasPrefix("3.2") else {
                throw OpenAPIReadError(message: "OpenAPI \(version) is not supported; this reads 3.0, 3.1 and 3.2")
            }
            return (try decoder.decode(OpenAPIKit.OpenAPI.Document.self, from: data), version, paths)
        } catch let error as OpenAPIReadError {
            throw error
        } catch let error as DecodingError {
            throw OpenAPIReadError(message: "not a valid OpenAPI \(version) document: \(Self.describe(error))")
        } catch {
            throw OpenAPIReadError(message: "not a valid OpenAPI \(version) document: \(error)")
        }
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
